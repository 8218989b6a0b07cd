terraform {
  required_version = ">= 1.6.0"

  required_providers {
    # The provider cluster (KubeVirt): the VirtualMachine and its cloud-init Secret go there.
    kubernetes = {
      source  = "hashicorp/kubernetes"
      version = ">= 2.38.0"
    }
  }
}
