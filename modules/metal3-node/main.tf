# One private bare-metal node: a Metal3 HostClaim for any free BareMetalHost the node type's selector
# matches, provisioned with the image and this node's cloud-init. The same spec constructs/render/metal3.ts
# renders.
#
# Destroying the claim releases its host: the baremetal-operator deprovisions it and, with the
# BareMetalHost's automatedCleaningMode "metadata" (the default), cleans its disks before anyone else can
# claim it. "disabled" skips cleaning; never use it on hosts that move between tenants.

locals {
  user_data_secret = coalesce(var.user_data_secret_name, "${var.name}-userdata")

  has_checksum = coalesce(var.image.checksum, "") != ""
  image = merge(
    { url = var.image.url },
    [{}, { checksum = var.image.checksum, checksumType = coalesce(var.image.checksum_type, "auto") }][local.has_checksum ? 1 : 0],
    [{}, { format = var.image.format }][var.image.format != null ? 1 : 0],
  )

  # The CRD requires values on every expression, also for Exists / DoesNotExist (then empty).
  host_selector = merge(
    [{}, { inNamespace = var.host_namespace }][var.host_namespace != null ? 1 : 0],
    [{}, { matchLabels = var.host_selector.match_labels }][length(var.host_selector.match_labels) > 0 ? 1 : 0],
    [{}, { matchExpressions = [for e in var.host_selector.match_expressions : { key = e.key, operator = e.operator, values = e.values }] }][length(var.host_selector.match_expressions) > 0 ? 1 : 0],
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
      labels = {
        "app.kubernetes.io/managed-by" = "metalslice"
        "metalslice.io/pool"           = var.pool
      }
    }
    type = "Opaque"
    # The baremetal-operator reads the user data from the userData key.
    data = { userData = base64encode(var.user_data) }
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
  host_claim = {
    apiVersion = "metal3.io/v1alpha1"
    kind       = "HostClaim"
    metadata = {
      name      = var.name
      namespace = var.namespace
      labels = {
        "app.kubernetes.io/managed-by" = "metalslice"
        "metalslice.io/pool"           = var.pool
        "metalslice.io/cluster"        = var.cluster
        "metalslice.io/node-type"      = var.node_type
      }
    }
    spec = merge(
      {
        hostSelector = local.host_selector
        image        = local.image
        userData     = { name = local.user_data_secret, namespace = var.namespace }
        poweredOn    = var.powered_on
      },
      [{}, { failureDomain = var.failure_domain }][var.failure_domain != null ? 1 : 0],
    )
  }
}

# Applied server-side, as the constructs apply their claims: a create whose answer was lost (an API server crash) is
# taken over by the next apply, and only the fields written here are compared (what Metal3 adds is not drift).
# Nothing reads the cluster's OpenAPI document: kubernetes_manifest fetched it, and listed every CRD, on each plan
# and apply of each claim.
resource "kubectl_manifest" "host_claim" {
  yaml_body         = yamlencode(local.host_claim)
  server_side_apply = true
  force_conflicts   = true
  # On destroy, wait until Metal3 has released the host (the claim is gone), so the Secret outlives the claim.
  wait = true

  # The Secret first: the operator reads it as soon as it binds a host to the claim.
  depends_on = [kubectl_manifest.user_data]
}

# Upgrading from metalslice 0.10, whose claim was a kubernetes_manifest: forgotten, not deleted (the host stays
# provisioned); the apply above takes the claim over (server-side), its UID kept.
removed {
  from = kubernetes_manifest.host_claim
  lifecycle {
    destroy = false
  }
}
