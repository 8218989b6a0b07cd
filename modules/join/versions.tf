terraform {
  required_version = ">= 1.7.0" # removed blocks (the upgrade from metalslice 0.2)

  required_providers {
    # The tenant cluster too: pass it as `providers = { kubernetes = kubernetes.tenant, kubectl = kubectl.tenant }`
    # (left out, the root's default kubectl provider, likely another cluster, would get the token). Secrets are
    # applied server-side (kubectl_manifest): a create whose answer was lost is taken over by the next apply.
    kubectl = {
      source  = "gavinbunney/kubectl"
      version = ">= 1.19.0, < 2.0.0"
    }
    # The tenant cluster: pass it as `providers = { kubernetes = kubernetes.tenant, kubectl = kubectl.tenant }`.
    kubernetes = {
      source  = "hashicorp/kubernetes"
      version = ">= 2.38.0"
    }
    random = {
      source  = "hashicorp/random"
      version = ">= 3.7.2"
    }
  }
}
