terraform {
  required_version = ">= 1.6.0"

  required_providers {
    kubernetes = {
      source  = "hashicorp/kubernetes"
      version = ">= 2.38.0"
    }
  }
}

# The provider (KubeVirt) cluster. Unset variables leave the provider to its environment: KUBE_CONFIG_PATH
# and KUBE_CTX, or the in-cluster service account when the platform runs the template in a pod.
provider "kubernetes" {
  config_path    = var.kubeconfig_path
  config_context = var.kubeconfig_context
}
