variable "name" {
  type        = string
  description = "The VirtualMachine's name, which is also the node's name in the tenant cluster."

  validation {
    condition     = can(regex("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", var.name)) && length(var.name) <= 63
    error_message = "name must be a DNS-1123 label: lower-case letters, digits and '-', at most 63 characters."
  }
}

variable "namespace" {
  type        = string
  description = "The namespace of the VM on the provider cluster (the quota's namespace)."

  validation {
    condition     = can(regex("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", var.namespace)) && length(var.namespace) <= 63
    error_message = "namespace must be a DNS-1123 label."
  }
}

variable "pool" {
  type        = string
  description = "The node pool the VM belongs to (label metalslice.io/pool; the spread constraint groups by it)."

  validation {
    condition     = can(regex("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", var.pool))
    error_message = "pool must be a DNS-1123 label."
  }
}

variable "quota" {
  type        = string
  description = "The Elastic Quota the VM is counted against (label metalslice.io/quota)."

  validation {
    condition     = can(regex("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", var.quota))
    error_message = "quota must be a DNS-1123 label."
  }
}

variable "cluster" {
  type        = string
  description = "The tenant cluster the node joins (label metalslice.io/cluster)."

  validation {
    condition     = can(regex("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", var.cluster))
    error_message = "cluster must be a DNS-1123 label."
  }
}

variable "node_type" {
  type        = string
  description = "The node type (label metalslice.io/node-type)."

  validation {
    condition     = can(regex("^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$", var.node_type)) && length(var.node_type) <= 63
    error_message = "node_type must be a valid label value."
  }
}

variable "host" {
  type        = string
  description = "Pin the VM to this host (kubernetes.io/hostname), as the planner placed it; null spreads the pool over hosts."
  default     = null

  validation {
    condition     = var.host == null || can(regex("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$", var.host))
    error_message = "host must be a node name (a DNS-1123 subdomain) or null."
  }
}

variable "host_group_label" {
  type        = string
  description = "Confine the VM to its pool's host group, spread inside it, as the plan groups the pool: the group's Node label key (group.metalslice.io/<cluster>.auto.<pool>: launcher.group.label of the pool in the plan's JSON), which metalslice writes on the group's hosts' Nodes; the VM's nodeSelector gets it with the value \"true\". Null spreads over the whole fleet. Ignored when host pins the VM."
  default     = null

  validation {
    # [prefix/]name: a DNS-1123 subdomain of at most 253 characters, then a name of at most 63.
    condition = var.host_group_label == null || try(alltrue([
      for m in [regex("^(?:([a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)*)/)?((?:[A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$", var.host_group_label)] :
      length(m[1]) <= 63 && (m[0] == null ? 0 : length(m[0])) <= 253
    ]), false)
    error_message = "host_group_label must be a Kubernetes label key ([prefix/]name, e.g. group.metalslice.io/team-a.auto.workers, the pool's launcher.group.label in the plan's JSON) or null; a list of host names is no longer taken."
  }
}

variable "user_data" {
  type        = string
  description = "The node's cloud-init user data (e.g. the join module's cloud_config)."
  sensitive   = true

  validation {
    condition     = length(var.user_data) > 0
    error_message = "user_data must not be empty."
  }
}

variable "user_data_secret_name" {
  type        = string
  description = "Name of the cloud-init Secret beside the VM. Null means <name>-cloudinit."
  default     = null

  validation {
    condition     = var.user_data_secret_name == null || can(regex("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$", var.user_data_secret_name))
    error_message = "user_data_secret_name must be a DNS-1123 subdomain or null."
  }
}

variable "vm" {
  type        = any
  description = "The VM as metalslice renders it for this node type or pool: {spec, pinnedEvictionStrategy}, an entry of vm_types or vm_pools in the vm-types.auto.tfvars.json that `metalslice node-template-vars` writes. The module adds only the claim's fields: name, labels, user data, and a host pin or the pool's spread."

  validation {
    condition     = can(var.vm.spec.template.spec.domain.devices.disks) && can(var.vm.spec.template.spec.volumes) && contains(["External", "None"], try(var.vm.pinnedEvictionStrategy, ""))
    error_message = "vm must be an entry that `metalslice node-template-vars --config FILE --provider NAME` writes (vm_types[<node type>] or vm_pools[<pool>]): regenerate vm-types.auto.tfvars.json beside the node template, and check the node type or pool is in the config."
  }
}
