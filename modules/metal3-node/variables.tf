variable "name" {
  type        = string
  description = "The HostClaim's name, which is also the node's name in the tenant cluster."

  validation {
    condition     = can(regex("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", var.name)) && length(var.name) <= 63
    error_message = "name must be a DNS-1123 label: lower-case letters, digits and '-', at most 63 characters."
  }
}

variable "namespace" {
  type        = string
  description = "The tenant's namespace on the provider cluster; a HostDeployPolicy in the host namespace must admit it."

  validation {
    condition     = can(regex("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", var.namespace)) && length(var.namespace) <= 63
    error_message = "namespace must be a DNS-1123 label."
  }
}

variable "pool" {
  type        = string
  description = "The private node pool the node belongs to (label metalslice.io/pool)."

  validation {
    condition     = can(regex("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", var.pool))
    error_message = "pool must be a DNS-1123 label."
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
  description = "The node type the host is claimed as (label metalslice.io/node-type)."

  validation {
    condition     = can(regex("^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$", var.node_type)) && length(var.node_type) <= 63
    error_message = "node_type must be a valid label value."
  }
}

variable "host_selector" {
  type = object({
    match_labels = optional(map(string), {})
    match_expressions = optional(list(object({
      key      = string
      operator = string
      values   = optional(list(string), [])
    })), [])
  })
  description = "Which BareMetalHosts may be claimed: the node type's label selector."

  validation {
    condition     = length(var.host_selector.match_labels) + length(var.host_selector.match_expressions) > 0
    error_message = "host_selector must select something: an empty selector would claim any free host."
  }

  validation {
    condition     = alltrue([for e in var.host_selector.match_expressions : contains(["In", "NotIn", "Exists", "DoesNotExist"], e.operator)])
    error_message = "match_expressions operators must be In, NotIn, Exists or DoesNotExist."
  }
}

variable "host_namespace" {
  type        = string
  description = "Namespace of the BareMetalHosts (hostSelector.inNamespace). Null lets Metal3 look in every namespace whose HostDeployPolicy admits the claim."
  default     = null

  validation {
    condition     = var.host_namespace == null || can(regex("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", var.host_namespace))
    error_message = "host_namespace must be a namespace name (DNS-1123 label) or null."
  }
}

variable "image" {
  type = object({
    url           = string
    checksum      = optional(string)
    checksum_type = optional(string)
    format        = optional(string)
  })
  description = "The OS image written to the host. checksum_type defaults to auto (Metal3 detects it) when a checksum is given."

  validation {
    condition     = can(regex("^(https?|file|oci)://\\S+$", var.image.url))
    error_message = "image.url must be an http(s), file or oci URL."
  }

  validation {
    condition     = var.image.format == "live-iso" || startswith(var.image.url, "oci://") || coalesce(var.image.checksum, "") != ""
    error_message = "image.checksum is required for disk images: give the image's sha256 (or a URL of its checksum file)."
  }

  validation {
    condition     = var.image.checksum_type == null || contains(["md5", "sha256", "sha512", "auto"], coalesce(var.image.checksum_type, "auto"))
    error_message = "image.checksum_type must be md5, sha256, sha512 or auto."
  }

  validation {
    condition     = var.image.format == null || contains(["raw", "qcow2", "vdi", "vmdk", "live-iso"], coalesce(var.image.format, "raw"))
    error_message = "image.format must be raw, qcow2, vdi, vmdk or live-iso."
  }
}

variable "failure_domain" {
  type        = string
  description = "Preferred failure domain: hosts labelled infrastructure.cluster.x-k8s.io/failure-domain=<this> are bound first."
  default     = null

  validation {
    condition     = var.failure_domain == null || can(regex("^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$", var.failure_domain))
    error_message = "failure_domain must be a label value (the hosts' infrastructure.cluster.x-k8s.io/failure-domain) or null."
  }
}

variable "powered_on" {
  type        = bool
  description = "Keep the claimed host powered on."
  default     = true

  validation {
    condition     = var.powered_on != null
    error_message = "powered_on must be true or false."
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
  description = "Name of the userData Secret beside the claim. Null means <name>-userdata."
  default     = null

  validation {
    condition     = var.user_data_secret_name == null || can(regex("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$", var.user_data_secret_name))
    error_message = "user_data_secret_name must be a DNS-1123 subdomain or null."
  }
}
