output "cloud_config" {
  description = "The #cloud-config document that joins the node (contains the bootstrap token)."
  value       = "#cloud-config\n${local.cloud_config_yaml}"
  sensitive   = true

  precondition {
    condition     = var.bootstrap == null || startswith(try(var.bootstrap.kubernetes, ""), "${var.kubernetes_version}.")
    error_message = "bootstrap.kubernetes must be a release of kubernetes_version (${var.kubernetes_version}.x): pin one, or set kubernetes_version to the pin's minor."
  }
}

output "token" {
  description = "The bootstrap token, <id>.<secret>."
  value       = local.token
  sensitive   = true
}

output "token_secret_name" {
  description = "Name of the bootstrap token Secret in the tenant's kube-system."
  value       = kubectl_manifest.bootstrap_token.name
}
