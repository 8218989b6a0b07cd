output "cloud_config" {
  description = "The #cloud-config document that joins the node (contains the bootstrap token)."
  value       = "#cloud-config\n${yamlencode(local.cloud_config)}"
  sensitive   = true
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
