# One elastic node: a KubeVirt VirtualMachine of a fixed shape whose cloud-init (a Secret beside it) joins
# the tenant cluster. The same spec constructs/render/kubevirt.ts renders: vCPUs as cores and as the CPU
# request (what the planner counted), memory as guest and request, a spread constraint or a host pin.

locals {
  user_data_secret = coalesce(var.user_data_secret_name, "${var.name}-cloudinit")
  image_url        = strcontains(var.image, "://") ? var.image : "docker://${var.image}"

  # cpu / ratio, rounded up to a millicore; whole CPUs are written without a suffix.
  cpu_millis  = var.cpu_allocation_ratio == 1 ? var.cpu * 1000 : ceil(var.cpu * 1000 * 1000 / floor(var.cpu_allocation_ratio * 1000 + 0.5))
  cpu_request = local.cpu_millis % 1000 == 0 ? tostring(local.cpu_millis / 1000) : "${local.cpu_millis}m"

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

  # One device per unit, named gpu0, gpu1, ... across resources in name order.
  device_names = flatten([for k in sort(keys(var.devices)) : [for i in range(var.devices[k]) : k]])
  gpus         = [for i, d in local.device_names : { name = "gpu${i}", deviceName = d }]

  # The root DataVolume's content: a CDI DataSource, an http(s) URL, or the image from its registry.
  data_source = try(var.image_source.data_source, null)
  http_url    = try(var.image_source.http_url, null)
  root_disk_source = [
    { source = { registry = { url = local.image_url } } },
    { source = { http = { url = local.http_url } } },
    { sourceRef = merge({ kind = "DataSource", name = try(local.data_source.name, "") }, try(local.data_source.namespace, null) == null ? {} : { namespace = local.data_source.namespace }) },
  ][local.data_source != null ? 2 : (local.http_url != null ? 1 : 0)]

  # Objects of different shapes are picked by indexing a tuple: a conditional needs both sides of one type.
  root_volume = [
    { name = "rootdisk", dataVolume = { name = "${var.name}-root" } },
    { name = "rootdisk", containerDisk = { image = var.image } },
  ][var.root_disk == "dataVolume" ? 0 : 1]

  placement = [{
    affinity = {
      nodeAffinity = {
        requiredDuringSchedulingIgnoredDuringExecution = {
          nodeSelectorTerms = [{ matchExpressions = [{ key = "kubernetes.io/hostname", operator = "In", values = [var.host] }] }]
        }
      }
    }
    }, {
    topologySpreadConstraints = [
      # Hard spread: no host holds more than ceil(n / hosts) of the pool, whatever the order (the plan counts on it).
      {
        maxSkew           = 1
        topologyKey       = "kubernetes.io/hostname"
        whenUnsatisfiable = "DoNotSchedule"
        nodeTaintsPolicy  = "Honor"
        labelSelector     = { matchLabels = { "metalslice.io/pool" = var.pool, "metalslice.io/cluster" = var.cluster } }
      },
    ]
  }][var.host != null ? 0 : 1]

  # Passed-through devices and a host pin rule out live migration: a host drain shuts such a VM down
  # (metalslice's planner says the same).
  eviction_strategy = var.eviction_strategy != null ? var.eviction_strategy : (length(local.gpus) > 0 || var.host != null ? "None" : "LiveMigrate")

  template_spec = merge(
    {
      domain = {
        cpu    = { cores = var.cpu, sockets = 1, threads = 1 }
        memory = { guest = var.memory }
        resources = {
          requests = { cpu = local.cpu_request, memory = var.memory }
        }
        devices = merge(
          {
            disks = [
              { name = "rootdisk", disk = { bus = "virtio" } },
              { name = "cloudinit", disk = { bus = "virtio" } },
            ]
            interfaces = [{ name = "default", masquerade = {} }]
          },
          [{}, { gpus = local.gpus }][length(local.gpus) > 0 ? 1 : 0],
        )
      }
      evictionStrategy              = local.eviction_strategy
      networks                      = [{ name = "default", pod = {} }]
      terminationGracePeriodSeconds = 180
      volumes                       = [local.root_volume, { name = "cloudinit", cloudInitNoCloud = { secretRef = { name = local.user_data_secret } } }]
    },
    [{}, { nodeSelector = var.host_selector }][length(var.host_selector) > 0 ? 1 : 0],
    local.placement,
  )

  data_volume_templates = [{}, {
    dataVolumeTemplates = [
      {
        metadata = { name = "${var.name}-root", creationTimestamp = null }
        spec     = merge(local.root_disk_source, { storage = { resources = { requests = { storage = var.disk } } } })
      },
    ]
  }][var.root_disk == "dataVolume" ? 1 : 0]
}

resource "kubernetes_secret_v1" "user_data" {
  metadata {
    name      = local.user_data_secret
    namespace = var.namespace
    labels    = { "metalslice.io/pool" = var.pool }
  }

  type = "Opaque"
  data = { userdata = var.user_data }
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
      { runStrategy = "Always" },
      local.data_volume_templates,
      {
        template = {
          metadata = { labels = local.pod_labels, creationTimestamp = null }
          spec     = local.template_spec
        }
      },
    )
  }
}

resource "kubernetes_manifest" "virtual_machine" {
  manifest = local.virtual_machine

  depends_on = [kubernetes_secret_v1.user_data]

  lifecycle {
    precondition {
      condition     = var.root_disk == "containerDisk" || var.disk != null
      error_message = "A dataVolume root disk needs its size: set disk (e.g. 100Gi) or use root_disk = \"containerDisk\"."
    }
  }
}
