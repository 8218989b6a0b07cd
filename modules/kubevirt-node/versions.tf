terraform {
  required_version = ">= 1.7.0" # removed blocks (the upgrade from metalslice 0.2)

  required_providers {
    # Secrets are applied server-side (kubectl_manifest): a create whose answer was lost is taken over by the
    # next apply instead of stopping it on "already exists".
    kubectl = {
      source  = "gavinbunney/kubectl"
      version = ">= 1.19.0, < 2.0.0"
    }
    # The provider cluster (KubeVirt): the VirtualMachine and its cloud-init Secret go there.
    kubernetes = {
      source  = "hashicorp/kubernetes"
      version = ">= 2.38.0"
    }
  }
}
