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

variable "bootstrap" {
  type = object({
    mode             = string
    kubernetes       = string
    containerd       = optional(string)
    package_revision = optional(string, "1.1")
    sandbox_image    = optional(string)
    repositories = optional(object({
      distribution   = optional(string)
      security       = optional(string)
      kubernetes     = string
      kubernetes_key = string
    }))
    proxy = optional(object({
      http     = optional(string)
      https    = optional(string)
      no_proxy = optional(list(string), [])
    }))
  })
  description = "Where the node gets containerd, kubelet and kubeadm, pinned (a cluster's bootstrap in metalslice's config, README \"Node software\"): mode preinstalled (the image carries them; the document checks their versions and joins), mirror (packages from repositories inside the fleet) or internet (pkgs.k8s.io); kubernetes is the exact version (1.34.4), whose minor must be kubernetes_version. null: unpinned, from pkgs.k8s.io."
  default     = null

  validation {
    condition     = var.bootstrap == null || try(contains(["preinstalled", "mirror", "internet"], var.bootstrap.mode) && can(regex("^1\\.[0-9]{1,3}\\.[0-9]{1,3}$", var.bootstrap.kubernetes)), false)
    error_message = "bootstrap.mode must be preinstalled, mirror or internet, and bootstrap.kubernetes an exact Kubernetes version such as 1.34.4."
  }

  validation {
    condition = var.bootstrap == null || try(
      var.bootstrap.mode == "preinstalled" ? (var.bootstrap.containerd == null || can(regex("^v?[0-9][0-9A-Za-z.+~-]{0,127}$", var.bootstrap.containerd))) && var.bootstrap.repositories == null && var.bootstrap.sandbox_image == null
      : can(regex("^([0-9]{1,9}:)?[0-9][0-9A-Za-z.+~-]{0,127}$", var.bootstrap.containerd)) && can(regex("^[0-9A-Za-z.+~]{1,64}$", var.bootstrap.package_revision)) && (var.bootstrap.sandbox_image == null || can(regex("^[a-z0-9][a-z0-9._\\-/:@]{0,254}$", var.bootstrap.sandbox_image))) && ((var.bootstrap.mode == "mirror") == (var.bootstrap.repositories != null)),
    false)
    error_message = "bootstrap: mirror and internet need containerd (the package version to install) and take package_revision and sandbox_image; mirror needs repositories, which only mirror takes; preinstalled takes containerd as `containerd --version` prints it, and nothing it would install."
  }

  validation {
    # URLs end up in the node's user data (and in state): no credential, no character a shell or an apt source line reads.
    condition = var.bootstrap == null || alltrue([
      for u in concat(
        try(var.bootstrap.repositories, null) == null ? [] : [var.bootstrap.repositories.distribution, var.bootstrap.repositories.security, var.bootstrap.repositories.kubernetes],
        try(var.bootstrap.proxy, null) == null ? [] : [var.bootstrap.proxy.http, var.bootstrap.proxy.https],
      ) : u == null || can(regex("^https?://[^@\\s\"'`$\\\\;|&<>(){}?#]+$", u))
    ])
    error_message = "bootstrap repository and proxy URLs must be http:// or https:// URLs with no credential (user:password@), query or fragment, and no space, quote, $, \\, ;, |, &, <, > or brackets: the node's user data carries them."
  }

  validation {
    condition = var.bootstrap == null || try(var.bootstrap.repositories, null) == null || try(
      can(regex("^-----BEGIN PGP PUBLIC KEY BLOCK-----\r?\n[\\s\\S]+\r?\n-----END PGP PUBLIC KEY BLOCK-----\\s*$", var.bootstrap.repositories.kubernetes_key)) && !strcontains(var.bootstrap.repositories.kubernetes_key, "PRIVATE KEY") && (var.bootstrap.repositories.security == null || var.bootstrap.repositories.distribution != null),
    false)
    error_message = "bootstrap.repositories.kubernetes_key must be the ASCII-armored PGP public key that signs the repository (gpg --armor --export KEYID), never a private key; security needs distribution."
  }

  validation {
    condition     = var.bootstrap == null || try(var.bootstrap.proxy, null) == null || try((var.bootstrap.proxy.http != null || var.bootstrap.proxy.https != null) && alltrue([for e in var.bootstrap.proxy.no_proxy : can(regex("^[A-Za-z0-9*.][A-Za-z0-9.\\-:/*\\[\\]]{0,252}$", e))]), false)
    error_message = "bootstrap.proxy needs http or https, and each no_proxy entry must be a host, domain, IP or CIDR."
  }
}
