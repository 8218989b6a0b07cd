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

variable "cpu" {
  type        = number
  description = "Whole vCPUs of the guest."

  validation {
    condition     = var.cpu >= 1 && floor(var.cpu) == var.cpu
    error_message = "cpu must be a whole number of vCPUs, 1 or more."
  }
}

variable "cpu_allocation_ratio" {
  type        = number
  description = "vCPUs per physical CPU of the fleet: the VM requests cpu / ratio (rounded up to a millicore). 1 means no overcommit."
  default     = 1

  validation {
    condition     = var.cpu_allocation_ratio >= 1
    error_message = "cpu_allocation_ratio must be 1 or more."
  }
}

variable "memory" {
  type        = string
  description = "Guest memory as a Kubernetes quantity (e.g. 16Gi); requested as is."

  validation {
    condition     = can(regex("^[0-9]+(\\.[0-9]+)?(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$", var.memory))
    error_message = "memory must be a Kubernetes quantity such as 16Gi."
  }
}

variable "disk" {
  type        = string
  description = "Root disk size (a Kubernetes quantity) of a dataVolume root disk; ignored for containerDisk."
  default     = null

  validation {
    condition     = var.disk == null || can(regex("^[0-9]+(\\.[0-9]+)?(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$", var.disk))
    error_message = "disk must be a Kubernetes quantity such as 100Gi."
  }
}

variable "root_disk" {
  type        = string
  description = "containerDisk (ephemeral, from the image) or dataVolume (a PVC of `disk`, imported from the image)."
  default     = "dataVolume"

  validation {
    condition     = contains(["containerDisk", "dataVolume"], var.root_disk)
    error_message = "root_disk must be containerDisk or dataVolume."
  }
}

variable "image" {
  type        = string
  description = "Root disk image: a container disk reference (docker:// is added when no scheme is given)."
  default     = "quay.io/containerdisks/ubuntu:24.04"

  validation {
    condition     = length(trimspace(var.image)) > 0
    error_message = "image must not be empty."
  }
}

variable "image_source" {
  type = object({
    http_url    = optional(string)
    data_source = optional(object({ name = string, namespace = optional(string) }))
  })
  description = "Where a dataVolume root disk's content comes from instead of image: an http(s) URL, or a CDI DataSource (name, optional namespace). Null: the image, from its registry."
  default     = null

  validation {
    condition     = var.image_source == null || (try(var.image_source.http_url, null) == null) != (try(var.image_source.data_source, null) == null)
    error_message = "image_source must set exactly one of http_url and data_source."
  }

  validation {
    condition     = try(var.image_source.http_url, null) == null || can(regex("^https?://", coalesce(try(var.image_source.http_url, null), "x")))
    error_message = "image_source.http_url must be an http:// or https:// URL."
  }
}

variable "devices" {
  type        = map(number)
  description = "Extended resources to pass through (e.g. {\"nvidia.com/gpu\" = 1}): one host device each, named gpu0, gpu1, ..."
  default     = {}

  validation {
    condition     = alltrue([for k, v in var.devices : strcontains(k, "/") && v >= 0 && floor(v) == v])
    error_message = "devices maps qualified resource names (vendor.com/name) to whole counts."
  }
}

variable "host_selector" {
  type        = map(string)
  description = "Node labels of the fleet's hosts: the VM only runs there."
  default     = {}

  validation {
    condition     = alltrue([for k, v in var.host_selector : can(regex("^([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$", k)) && can(regex("^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$", v))])
    error_message = "host_selector must map label keys to label values."
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

variable "eviction_strategy" {
  description = "What KubeVirt does with the VM when its host is drained (LiveMigrate, LiveMigrateIfPossible, External, None). Default: LiveMigrate, or None when the VM passes a device through or is pinned to a host (a pinned VM has nowhere to migrate)."
  type        = string
  default     = null
  validation {
    condition     = var.eviction_strategy == null || contains(["LiveMigrate", "LiveMigrateIfPossible", "External", "None"], coalesce(var.eviction_strategy, "None"))
    error_message = "eviction_strategy must be one of LiveMigrate, LiveMigrateIfPossible, External, None."
  }
}
