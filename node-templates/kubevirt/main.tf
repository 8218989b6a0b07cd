# vCluster Platform runs this root module once per node claim (tofu apply) and destroys it when the claim
# goes away (tofu destroy). It reads the claim from var.vcluster and makes one KubeVirt VM that joins the
# tenant cluster with the platform's user data, through the same module the metalslice constructs mirror.
#
# The VM is not computed here. `metalslice node-template-vars --config FILE --provider NAME` writes
# vm-types.auto.tfvars.json beside this file: per node type (vm_types) and per planned auto-node pool
# (vm_pools), the spec metalslice's one renderer writes, with every `vm` option, the fleet's overcommit,
# root disk, image and host selector in it. A claim takes its pool's entry, else its node type's.
#
# Claim properties this template reads (all optional):
#   metalslice.io/namespace  namespace of the VMs (the Elastic Quota's); default: vcluster.namespace
#   metalslice.io/quota      the quota label; default: the namespace
#   metalslice.io/pool       the pool label (and the vm_pools key); default: the node type's name
#   metalslice.io/host       pin the VM to this host, for nodes the plan pins (its report says which)
#   metalslice.io/host-group confine the VM to its pool's host group, spread inside it, for pools the plan
#                            groups: the group's Node label key (group.metalslice.io/<cluster>.auto.<pool>, which
#                            `metalslice plan` names), which metalslice writes on the group's hosts' Nodes; not
#                            a list of hosts. With neither, the pool spreads over the fleet

locals {
  properties = merge(try(var.vcluster.nodeType.spec.properties, {}), try(var.vcluster.properties, {}))

  node_name      = try(var.vcluster.nodeClaim.metadata.name, var.vcluster.name)
  node_type_name = try(var.vcluster.nodeType.metadata.name, var.vcluster.nodeType.name)
  cluster        = try(var.vcluster.instance.metadata.name, local.properties["metalslice.io/cluster"])
  namespace      = try(local.properties["metalslice.io/namespace"], var.vcluster.namespace)
  pool           = try(local.properties["metalslice.io/pool"], local.node_type_name)
}

module "node" {
  source = "../../modules/kubevirt-node"

  name      = local.node_name
  namespace = local.namespace
  pool      = local.pool
  quota     = try(local.properties["metalslice.io/quota"], local.namespace)
  cluster   = local.cluster
  node_type = local.node_type_name
  vm        = try(var.vm_pools[local.pool], var.vm_types[local.node_type_name], null)
  host      = try(local.properties["metalslice.io/host"], null)
  # A pool the plan confines to a host group: the group's label key, which the VM's nodeSelector selects.
  host_group_label = try(trimspace(local.properties["metalslice.io/host-group"]), null)
  user_data        = var.vcluster.userData
}
