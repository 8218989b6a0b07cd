output "name" {
  description = "Name of the HostClaim (and of the node it becomes)."
  value       = module.node.name
  sensitive   = true
}

output "namespace" {
  description = "Namespace of the HostClaim."
  value       = module.node.namespace
  sensitive   = true
}
