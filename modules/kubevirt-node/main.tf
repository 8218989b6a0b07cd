# One elastic node: a KubeVirt VirtualMachine whose cloud-init (a Secret beside it) joins the tenant cluster.
# The VM itself (topology, memory, requests, options, devices, root disk, eviction, host selector) arrives as
# data: var.vm is what metalslice's one renderer wrote for the node type or pool (renderVmSpec). This module
# computes nothing about it and adds only what a claim brings, as the constructs' claimVirtualMachine does:
# the name, the labels, the cloud-init disk, the claim's name before each DataVolume's, and a host pin or the
# pool's hard spread (inside its host group: the group's Node label in the nodeSelector).

locals {
  user_data_secret = coalesce(var.user_data_secret_name, "${var.name}-cloudinit")
  template_spec    = var.vm.spec.template.spec
  devices          = local.template_spec.domain.devices

  labels = {
    "app.kubernetes.io/managed-by" = "metalslice"
    "metalslice.io/pool"           = var.pool
    "metalslice.io/quota"          = var.quota
    "metalslice.io/cluster"        = var.cluster
    "metalslice.io/node-type"      = var.node_type
  }
  pod_labels = {
    "metalslice.io/pool"    = var.pool
    "metalslice.io/quota"   = var.quota
    "metalslice.io/cluster" = var.cluster
    "kubevirt.io/vm"        = var.name
  }

  spread = [
    # Hard spread: no host holds more than ceil(n / hosts) of the pool, whatever the order (the plan counts on it).
    {
      maxSkew           = 1
      topologyKey       = "kubernetes.io/hostname"
      whenUnsatisfiable = "DoNotSchedule"
      nodeTaintsPolicy  = "Honor"
      labelSelector     = { matchLabels = { "metalslice.io/pool" = var.pool, "metalslice.io/cluster" = var.cluster } }
    },
  ]
  # Objects of different shapes are picked by indexing a tuple: a conditional needs both sides of one type.
  # A pin to one host; the spread inside the pool's host group; or the spread over the whole fleet.
  placement = [
    { affinity = local.required_host },
    { nodeSelector = local.group_selector, topologySpreadConstraints = local.spread },
    { topologySpreadConstraints = local.spread },
  ][var.host != null ? 0 : (var.host_group_label != null ? 1 : 2)]
  required_host = {
    nodeAffinity = {
      requiredDuringSchedulingIgnoredDuringExecution = {
        nodeSelectorTerms = [{ matchExpressions = [{ key = "kubernetes.io/hostname", operator = "In", values = var.host != null ? [var.host] : [] }] }]
      }
    }
  }
  # A grouped pool selects its group's label, which metalslice writes on the group's hosts' Nodes, beside the
  # fleet's host selector the spec may carry: one label, not the list of the group's host names.
  group_selector = merge(
    try(local.template_spec.nodeSelector, {}),
    { for key in(var.host_group_label == null ? [] : [var.host_group_label]) : key => "true" },
  )

  # The claim's name before each DataVolume's (root becomes <name>-root).
  volumes = [for v in local.template_spec.volumes : [v, merge(v, { dataVolume = { name = "${var.name}-${try(v.dataVolume.name, "")}" } })][can(v.dataVolume.name) ? 1 : 0]]
  data_volume_templates = [
    for t in try(var.vm.spec.dataVolumeTemplates, []) : merge(t, { metadata = { name = "${var.name}-${t.metadata.name}" } })
  ]

  claimed_spec = merge(
    local.template_spec,
    {
      domain = merge(local.template_spec.domain, {
        devices = merge(local.devices, { disks = concat(local.devices.disks, [{ name = "cloudinit", disk = { bus = "virtio" } }]) })
      })
      # A VM pinned to one host has nowhere to migrate: the renderer says what it becomes.
      evictionStrategy = var.host != null ? var.vm.pinnedEvictionStrategy : local.template_spec.evictionStrategy
      volumes          = concat(local.volumes, [{ name = "cloudinit", cloudInitNoCloud = { secretRef = { name = local.user_data_secret } } }])
    },
    local.placement,
  )
}

# Applied server-side: a create whose answer was lost (an API server crash) leaves a Secret the state does not
# know, and the next apply takes it over (its UID kept) instead of stopping on "already exists".
resource "kubectl_manifest" "user_data" {
  yaml_body = yamlencode({
    apiVersion = "v1"
    kind       = "Secret"
    metadata = {
      name      = local.user_data_secret
      namespace = var.namespace
      labels    = { "metalslice.io/pool" = var.pool }
    }
    type = "Opaque"
    # data, not stringData: the API server never shows stringData, so every plan would see it missing.
    data = { userdata = base64encode(var.user_data) }
  })
  sensitive_fields  = ["data"]
  server_side_apply = true
  force_conflicts   = true
  # No wait on destroy: no finalizer holds a Secret and nothing needs one gone first, and the provider's wait is a
  # foreground delete and a 10 s sleep before it reads the Secret again.
  wait = false
}

# Upgrading from metalslice 0.2, whose Secret was a kubernetes_secret_v1: forgotten, not deleted; the apply above
# takes the Secret over.
removed {
  from = kubernetes_secret_v1.user_data
  lifecycle {
    destroy = false
  }
}

locals {
  virtual_machine = {
    apiVersion = "kubevirt.io/v1"
    kind       = "VirtualMachine"
    metadata = {
      name      = var.name
      namespace = var.namespace
      labels    = local.labels
    }
    spec = merge(
      { runStrategy = var.vm.spec.runStrategy },
      [{}, { dataVolumeTemplates = local.data_volume_templates }][length(local.data_volume_templates) > 0 ? 1 : 0],
      {
        template = {
          # KubeVirt's VM mutator adds this annotation on create; written here, planned and applied objects match.
          metadata = { labels = local.pod_labels, annotations = { "kubevirt.io/pci-topology-version" = "v3" } }
          spec     = local.claimed_spec
        }
      },
    )
  }
}

# Applied server-side, as the constructs apply their VMs: a create whose answer was lost (an API server crash) is
# taken over by the next apply, and only the fields written here are compared (what KubeVirt's admission adds is
# not drift). Nothing reads the cluster's OpenAPI document: kubernetes_manifest fetched it, and listed every CRD, on
# each plan and apply of each claim.
resource "kubectl_manifest" "virtual_machine" {
  yaml_body         = yamlencode(local.virtual_machine)
  server_side_apply = true
  force_conflicts   = true
  # On destroy, wait until the VM is gone, so its cloud-init Secret outlives it.
  wait = true

  depends_on = [kubectl_manifest.user_data]
}

# Upgrading from metalslice 0.10, whose VM was a kubernetes_manifest: forgotten, not deleted; the apply above takes
# the VM over (server-side), its UID kept.
removed {
  from = kubernetes_manifest.virtual_machine
  lifecycle {
    destroy = false
  }
}
