terraform {
  required_version = ">= 1.6.0"

  required_providers {
    # The tenant cluster: pass it as `providers = { kubernetes = kubernetes.tenant }`.
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
