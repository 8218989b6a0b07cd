# vCluster Platform runs this root module once per node claim (tofu apply) and destroys it when the claim
# goes away (tofu destroy). It reads the claim from var.vcluster and makes one Metal3 HostClaim for a free
# bare-metal host, provisioned with the image and the platform's user data.
#
# Destroying the claim releases the host: Metal3 deprovisions it and, with the BareMetalHost's
# automatedCleaningMode "metadata" (the default), cleans its disks before it can be claimed again.
# The claim's namespace must be admitted by a HostDeployPolicy in the host namespace (the metalslice
# PrivateNodePool construct writes one; see README.md).
#
# Node type properties:
#   metalslice.io/host-selector        required: BareMetalHost labels, "key=value,key=value"
#   metalslice.io/image-url            required: the OS image
#   metalslice.io/image-checksum       the image checksum (required unless a live ISO or an oci:// image)
#   metalslice.io/image-checksum-type  md5, sha256, sha512 or auto; default: auto
#   metalslice.io/image-format         raw, qcow2, vdi, vmdk or live-iso
#   metalslice.io/host-namespace       namespace of the BareMetalHosts; default: any admitting namespace
#   metalslice.io/namespace            namespace of the HostClaim; default: vcluster.namespace
#   metalslice.io/pool                 the pool label; default: the node type's name
#   metalslice.io/failure-domain       preferred failure domain

locals {
  node_type  = var.vcluster.nodeType
  properties = merge(try(local.node_type.spec.properties, {}), try(var.vcluster.properties, {}))

  node_name      = try(var.vcluster.nodeClaim.metadata.name, var.vcluster.name)
  node_type_name = try(local.node_type.metadata.name, local.node_type.name)
  cluster        = try(var.vcluster.instance.metadata.name, local.properties["metalslice.io/cluster"])

  match_labels = {
    for pair in compact(split(",", try(local.properties["metalslice.io/host-selector"], ""))) : trimspace(split("=", pair)[0]) => trimspace(split("=", pair)[1])
  }
}

module "node" {
  source = "../../modules/metal3-node"

  name           = local.node_name
  namespace      = try(local.properties["metalslice.io/namespace"], var.vcluster.namespace)
  pool           = try(local.properties["metalslice.io/pool"], local.node_type_name)
  cluster        = local.cluster
  node_type      = local.node_type_name
  host_selector  = { match_labels = local.match_labels }
  host_namespace = try(local.properties["metalslice.io/host-namespace"], null)
  image = {
    url           = local.properties["metalslice.io/image-url"]
    checksum      = try(local.properties["metalslice.io/image-checksum"], null)
    checksum_type = try(local.properties["metalslice.io/image-checksum-type"], null)
    format        = try(local.properties["metalslice.io/image-format"], null)
  }
  failure_domain = try(local.properties["metalslice.io/failure-domain"], null)
  user_data      = var.vcluster.userData
}
