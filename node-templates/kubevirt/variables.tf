variable "vcluster" {
  type        = any
  sensitive   = true
  description = "The node claim as vCluster Platform passes it to a terraform node template: name, namespace, userData, requirements, properties, nodeClaim, nodeType, nodeProvider, instance."

  validation {
    condition     = can(var.vcluster.userData) && (can(var.vcluster.nodeType.metadata.name) || can(var.vcluster.nodeType.name))
    error_message = "vcluster must carry userData and a nodeType with its name (the platform passes them for every claim)."
  }
}

variable "kubeconfig_path" {
  type        = string
  description = "kubeconfig of the provider cluster. Null: KUBE_CONFIG_PATH, or the in-cluster service account."
  default     = null

  validation {
    condition     = var.kubeconfig_path == null || length(trimspace(coalesce(var.kubeconfig_path, " "))) > 0
    error_message = "kubeconfig_path must be a file path or null."
  }
}

variable "kubeconfig_context" {
  type        = string
  description = "Context in kubeconfig_path. Null: KUBE_CTX, or the current context."
  default     = null

  validation {
    condition     = var.kubeconfig_context == null || length(trimspace(coalesce(var.kubeconfig_context, " "))) > 0
    error_message = "kubeconfig_context must be a context name or null."
  }
}

variable "vm_types" {
  type        = any
  description = "VMs by node type name, as metalslice renders them: written to vm-types.auto.tfvars.json by `metalslice node-template-vars`."
  default     = {}

  validation {
    condition     = alltrue([for k, v in var.vm_types : can(v.spec.template.spec.domain) && contains(["External", "None"], try(v.pinnedEvictionStrategy, ""))])
    error_message = "vm_types must be as `metalslice node-template-vars --config FILE --provider NAME --out vm-types.auto.tfvars.json` writes it: regenerate the file rather than editing it."
  }
}

variable "vm_pools" {
  type        = any
  description = "VMs by pool label (metalslice.io/pool) for the planned auto-node pools, with their claim properties: written beside vm_types."
  default     = {}

  validation {
    condition     = alltrue([for k, v in var.vm_pools : can(v.spec.template.spec.domain) && contains(["External", "None"], try(v.pinnedEvictionStrategy, ""))])
    error_message = "vm_pools must be as `metalslice node-template-vars --config FILE --provider NAME --out vm-types.auto.tfvars.json` writes it: regenerate the file rather than editing it."
  }
}
