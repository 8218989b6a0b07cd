output "name" {
  description = "Name of the VirtualMachine (and of the node it becomes)."
  value       = kubectl_manifest.virtual_machine.name
}

output "namespace" {
  description = "Namespace of the VirtualMachine."
  value       = var.namespace
}

output "user_data_secret_name" {
  description = "Name of the cloud-init Secret the VM boots with."
  value       = kubectl_manifest.user_data.name
}

output "virtual_machine" {
  description = "The VirtualMachine object as written to the API server (what the metalslice constructs render for the same node)."
  value       = local.virtual_machine
}
