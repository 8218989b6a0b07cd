output "name" {
  description = "Name of the HostClaim (and of the node it becomes)."
  value       = kubectl_manifest.host_claim.name
}

output "namespace" {
  description = "Namespace of the HostClaim."
  value       = var.namespace
}

output "user_data_secret_name" {
  description = "Name of the userData Secret the host is provisioned with."
  value       = kubectl_manifest.user_data.name
}
