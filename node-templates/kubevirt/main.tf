# vCluster Platform runs this root module once per node claim (tofu apply) and destroys it when the claim
# goes away (tofu destroy). It reads the claim from var.vcluster and makes one KubeVirt VM that joins the
# tenant cluster with the platform's user data, through the same module the metalslice constructs mirror.
#
# Node type properties (all optional):
#   metalslice.io/namespace             namespace of the VMs (the Elastic Quota's); default: vcluster.namespace
#   metalslice.io/quota                 the quota label; default: the namespace
#   metalslice.io/pool                  the pool label; default: the node type's name
#   metalslice.io/image                 root disk image; default: quay.io/containerdisks/ubuntu:24.04
#   metalslice.io/root-disk             containerDisk or dataVolume; default: dataVolume when the type has a disk
#   metalslice.io/disk                  root disk size, when the type's resources have no disk
#   metalslice.io/host-selector         fleet host labels, "key=value,key=value"
#   metalslice.io/cpu-allocation-ratio  the fleet's vCPUs per physical CPU; default: 1
#   metalslice.io/host                  pin the VM to this host, for nodes the plan pins (its report says which):
#                                       without it the template spreads the pool, as the plan does for the rest
# vCluster's KubeVirt properties, read as the metalslice constructs read them:
#   kubevirt.vcluster.com/root-disk-size   a dataVolume root disk of this size (over the type's disk)
#   kubevirt.vcluster.com/image-url        with root-disk-size: docker://IMAGE or an http(s) URL
#   kubevirt.vcluster.com/image-datasource with root-disk-size: a CDI DataSource, NAME or NAMESPACE/NAME
# Resources: cpu, memory, disk (or ephemeral-storage) and extended resources (passed through as devices).

locals {
  node_type  = var.vcluster.nodeType
  resources  = local.node_type.spec.resources
  properties = merge(try(local.node_type.spec.properties, {}), try(var.vcluster.properties, {}))

  node_name      = try(var.vcluster.nodeClaim.metadata.name, var.vcluster.name)
  node_type_name = try(local.node_type.metadata.name, local.node_type.name)
  cluster        = try(var.vcluster.instance.metadata.name, local.properties["metalslice.io/cluster"])
  namespace      = try(local.properties["metalslice.io/namespace"], var.vcluster.namespace)
  root_disk_size = try(local.properties["kubevirt.vcluster.com/root-disk-size"], null)
  disk           = coalesce(local.root_disk_size, try(local.resources["disk"], local.resources["ephemeral-storage"], local.properties["metalslice.io/disk"], "none"))
  image_url      = local.root_disk_size == null ? null : try(local.properties["kubevirt.vcluster.com/image-url"], null)
  datasource     = local.root_disk_size == null ? null : try(local.properties["kubevirt.vcluster.com/image-datasource"], null)
  # The platform prefers the DataSource when both are set.
  image_source = local.datasource != null ? {
    http_url    = null
    data_source = length(split("/", local.datasource)) > 1 ? { namespace = split("/", local.datasource)[0], name = split("/", local.datasource)[1] } : { namespace = null, name = local.datasource }
    } : (local.image_url != null && can(regex("^https?://", coalesce(local.image_url, "x"))) ? {
      http_url    = local.image_url
      data_source = null
  } : null)

  host_selector_text = try(local.properties["metalslice.io/host-selector"], "")
  host_selector = {
    for pair in compact(split(",", local.host_selector_text)) : trimspace(split("=", pair)[0]) => trimspace(split("=", pair)[1])
  }
}

module "node" {
  source = "../../modules/kubevirt-node"

  name                 = local.node_name
  namespace            = local.namespace
  pool                 = try(local.properties["metalslice.io/pool"], local.node_type_name)
  quota                = try(local.properties["metalslice.io/quota"], local.namespace)
  cluster              = local.cluster
  node_type            = local.node_type_name
  cpu                  = tonumber(local.resources.cpu)
  cpu_allocation_ratio = tonumber(try(local.properties["metalslice.io/cpu-allocation-ratio"], 1))
  memory               = local.resources.memory
  disk                 = local.disk == "none" ? null : local.disk
  root_disk            = local.root_disk_size != null ? "dataVolume" : try(local.properties["metalslice.io/root-disk"], local.disk == "none" ? "containerDisk" : "dataVolume")
  image                = local.image_url != null && local.image_source == null ? local.image_url : try(local.properties["metalslice.io/image"], "quay.io/containerdisks/ubuntu:24.04")
  image_source         = local.image_source
  host                 = try(local.properties["metalslice.io/host"], null)
  devices              = { for k, v in local.resources : k => tonumber(v) if strcontains(k, "/") }
  host_selector        = local.host_selector
  user_data            = var.vcluster.userData
}
