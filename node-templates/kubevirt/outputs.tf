output "name" {
  description = "Name of the VirtualMachine (and of the node it becomes)."
  value       = module.node.name
  sensitive   = true
}

output "namespace" {
  description = "Namespace of the VirtualMachine."
  value       = module.node.namespace
  sensitive   = true
}
