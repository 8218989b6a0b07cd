terraform {
  required_version = ">= 1.7.0" # removed blocks (the upgrade from metalslice 0.2)

  required_providers {
    # Secrets are applied server-side (kubectl_manifest): a create whose answer was lost is taken over by the
    # next apply instead of stopping it on "already exists".
    kubectl = {
      source  = "gavinbunney/kubectl"
      version = ">= 1.19.0, < 2.0.0"
    }
    kubernetes = {
      source  = "hashicorp/kubernetes"
      version = ">= 2.38.0"
    }
  }
}

# The provider (Metal3) cluster. Unset variables leave the provider to its environment: KUBE_CONFIG_PATH
# and KUBE_CTX, or the in-cluster service account when the platform runs the template in a pod.
provider "kubernetes" {
  config_path    = var.kubeconfig_path
  config_context = var.kubeconfig_context
}

# The same cluster for the server-side applied Secrets.
provider "kubectl" {
  config_path    = var.kubeconfig_path
  config_context = var.kubeconfig_context
}
