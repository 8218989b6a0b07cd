terraform {
  required_version = ">= 1.6.0"

  required_providers {
    # The provider cluster (Metal3): the HostClaim and its userData Secret go there.
    kubernetes = {
      source  = "hashicorp/kubernetes"
      version = ">= 2.38.0"
    }
  }
}
