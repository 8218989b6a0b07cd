variable "node_name" {
  type        = string
  description = "The node's name in the tenant cluster; also its hostname."

  validation {
    condition     = can(regex("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", var.node_name)) && length(var.node_name) <= 63
    error_message = "node_name must be a DNS-1123 label: lower-case letters, digits and '-', at most 63 characters."
  }
}

variable "cluster_endpoint" {
  type        = string
  description = "The tenant API server the node joins, https://HOST:PORT (port 443 when omitted)."

  validation {
    condition     = can(regex("^https://[^/\\s:]+(:[0-9]{1,5})?/?$", var.cluster_endpoint))
    error_message = "cluster_endpoint must be an API server URL: https://HOST:PORT, e.g. https://10.0.0.10:6443."
  }
}

variable "cluster_ca_cert_hash" {
  type        = string
  description = "sha256:<hex> of the tenant CA's public key (SubjectPublicKeyInfo), as `kubeadm token create --print-join-command` prints it."

  validation {
    condition     = can(regex("^sha256:[0-9a-f]{64}$", var.cluster_ca_cert_hash))
    error_message = "cluster_ca_cert_hash must be sha256: followed by 64 lower-case hex digits (openssl x509 -pubkey -in ca.crt | openssl pkey -pubin -outform der | sha256sum)."
  }
}

variable "kubernetes_version" {
  type        = string
  description = "Kubernetes minor version of the kubelet and kubeadm packages (pkgs.k8s.io), e.g. 1.33."
  default     = "1.33"

  validation {
    condition     = can(regex("^1\\.[0-9]{1,2}$", var.kubernetes_version))
    error_message = "kubernetes_version must be a minor version such as 1.33."
  }
}

variable "node_labels" {
  type        = map(string)
  description = "Labels the kubelet sets on its Node at join. Labels NodeRestriction forbids a kubelet to set (node-role.kubernetes.io/*, most of kubernetes.io) are left out."
  default     = {}

  validation {
    condition     = alltrue([for k, v in var.node_labels : can(regex("^([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$", k)) && can(regex("^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$", v))])
    error_message = "node_labels must be Kubernetes label keys and values."
  }
}

variable "node_taints" {
  type = list(object({
    key    = string
    value  = optional(string)
    effect = string
  }))
  description = "Taints the node registers with."
  default     = []

  validation {
    condition     = alltrue([for t in var.node_taints : contains(["NoSchedule", "PreferNoSchedule", "NoExecute"], t.effect)])
    error_message = "Each taint effect must be NoSchedule, PreferNoSchedule or NoExecute."
  }
}

variable "token_ttl" {
  type        = string
  description = "How long the bootstrap token stays valid after it is created (Terraform duration, e.g. 24h)."
  default     = "24h"

  validation {
    condition     = can(regex("^([0-9]+(h|m|s))+$", var.token_ttl))
    error_message = "token_ttl must be a duration such as 24h or 90m."
  }
}
