# Join material for one node: a kubeadm bootstrap token made here (random_*), registered in the tenant
# cluster's kube-system, and the #cloud-config that installs containerd, kubelet and kubeadm and joins
# with that token. The same document constructs/render/cloud-init.ts renders.

resource "random_string" "token_id" {
  length  = 6
  upper   = false
  special = false
  lower   = true
  numeric = true
}

resource "random_password" "token_secret" {
  length  = 16
  upper   = false
  special = false
  lower   = true
  numeric = true
}

# Applied server-side: a create whose answer was lost (an API server crash) leaves a Secret the state does not
# know, and the next apply takes it over (its UID kept) instead of stopping on "already exists".
resource "kubectl_manifest" "bootstrap_token" {
  yaml_body = yamlencode({
    apiVersion = "v1"
    kind       = "Secret"
    metadata = {
      name      = "bootstrap-token-${random_string.token_id.result}"
      namespace = "kube-system"
      labels    = { "app.kubernetes.io/managed-by" = "metalslice" }
    }
    type = "bootstrap.kubernetes.io/token"
    data = { for k, v in {
      description                      = "metalslice node ${var.node_name}"
      "token-id"                       = random_string.token_id.result
      "token-secret"                   = random_password.token_secret.result
      expiration                       = timeadd(timestamp(), var.token_ttl)
      "usage-bootstrap-authentication" = "true"
      "usage-bootstrap-signing"        = "true"
      "auth-extra-groups"              = "system:bootstrappers:kubeadm:default-node-token"
    } : k => base64encode(v) }
  })
  sensitive_fields  = ["data"]
  server_side_apply = true
  force_conflicts   = true
  # No wait on destroy: no finalizer holds a Secret and nothing needs one gone first, and the provider's wait is a
  # foreground delete and a 10 s sleep before it reads the Secret again.
  wait = false

  lifecycle {
    # The expiration is stamped once, at creation; later plans must not move it.
    ignore_changes = [yaml_body]
  }
}

# Upgrading from metalslice 0.2, whose token Secret was a kubernetes_secret_v1: forgotten, not deleted; the apply
# above takes the Secret over.
removed {
  from = kubernetes_secret_v1.bootstrap_token
  lifecycle {
    destroy = false
  }
}

locals {
  token = "${random_string.token_id.result}.${random_password.token_secret.result}"

  endpoint_parts      = regex("^https://([^/:]+)(?::([0-9]+))?/?$", var.cluster_endpoint)
  api_server_endpoint = "${local.endpoint_parts[0]}:${coalesce(local.endpoint_parts[1], "443")}"

  # What NodeRestriction lets a kubelet set on its own Node.
  allowed_kubernetes_io = ["kubernetes.io/hostname", "kubernetes.io/arch", "kubernetes.io/os", "node.kubernetes.io/instance-type", "topology.kubernetes.io/zone", "topology.kubernetes.io/region"]
  label_prefix          = { for k, v in var.node_labels : k => (strcontains(k, "/") ? split("/", k)[0] : "") }
  self_settable_labels = {
    for k, v in var.node_labels : k => v
    if !startswith(k, "node-role.kubernetes.io/") && (
      !(local.label_prefix[k] == "kubernetes.io" || local.label_prefix[k] == "k8s.io" || endswith(local.label_prefix[k], ".kubernetes.io") || endswith(local.label_prefix[k], ".k8s.io"))
      || contains(local.allowed_kubernetes_io, k)
      || local.label_prefix[k] == "kubelet.kubernetes.io"
      || local.label_prefix[k] == "node.kubernetes.io"
    )
  }
  node_labels_arg = join(",", [for k, v in local.self_settable_labels : "${k}=${v}"])

  join_configuration = {
    apiVersion = "kubeadm.k8s.io/v1beta4"
    kind       = "JoinConfiguration"
    discovery = {
      bootstrapToken = {
        apiServerEndpoint = local.api_server_endpoint
        token             = local.token
        caCertHashes      = [var.cluster_ca_cert_hash]
      }
    }
    nodeRegistration = {
      name             = var.node_name
      criSocket        = "unix:///run/containerd/containerd.sock"
      kubeletExtraArgs = local.node_labels_arg == "" ? [] : [{ name = "node-labels", value = local.node_labels_arg }]
      taints           = [for t in var.node_taints : merge({ key = t.key, effect = t.effect }, t.value == null ? {} : { value = t.value })]
    }
    # The kubelet's graceful node shutdown comes as a kubeadm patch (constructs/render/cloud-init.ts KUBELET_SHUTDOWN).
    patches = { directory = "/etc/kubernetes/patches" }
  }

  repo    = "https://pkgs.k8s.io/core:/stable:/v${var.kubernetes_version}/deb/"
  keyring = "/etc/apt/keyrings/kubernetes-apt-keyring.gpg"

  join_files = [
    { path = "/etc/modules-load.d/kubernetes.conf", permissions = "0644", content = "overlay\nbr_netfilter\n" },
    { path = "/etc/sysctl.d/99-kubernetes.conf", permissions = "0644", content = "net.bridge.bridge-nf-call-iptables = 1\nnet.bridge.bridge-nf-call-ip6tables = 1\nnet.ipv4.ip_forward = 1\n" },
    { path = "/etc/kubernetes/kubeadm-join.yaml", permissions = "0600", owner = "root:root", content = yamlencode(local.join_configuration) },
    { path = "/etc/kubernetes/patches/kubeletconfiguration+merge.yaml", permissions = "0644", content = "shutdownGracePeriod: 150s\nshutdownGracePeriodCriticalPods: 30s\n" },
  ]

  # As YAML: the two documents differ in shape, so only their text makes one value.
  cloud_config_yaml = var.bootstrap == null ? yamlencode(local.unpinned_cloud_config) : yamlencode(jsondecode(local.pinned_cloud_config))

  unpinned_cloud_config = {
    hostname       = var.node_name
    fqdn           = var.node_name
    write_files    = local.join_files
    package_update = true
    packages       = ["apt-transport-https", "ca-certificates", "curl", "gpg", "containerd"]
    runcmd = [
      ["modprobe", "overlay"],
      ["modprobe", "br_netfilter"],
      ["sysctl", "--system"],
      ["mkdir", "-p", "-m", "0755", "/etc/apt/keyrings"],
      ["sh", "-c", "curl -fsSL ${local.repo}Release.key | gpg --dearmor --yes -o ${local.keyring}"],
      ["sh", "-c", "echo \"deb [signed-by=${local.keyring}] ${local.repo} /\" > /etc/apt/sources.list.d/kubernetes.list"],
      ["apt-get", "update"],
      ["apt-get", "install", "-y", "kubelet", "kubeadm"],
      ["apt-mark", "hold", "kubelet", "kubeadm"],
      ["sh", "-c", "mkdir -p /etc/containerd && containerd config default | sed \"s/SystemdCgroup = false/SystemdCgroup = true/\" > /etc/containerd/config.toml"],
      ["systemctl", "restart", "containerd"],
      ["systemctl", "enable", "--now", "kubelet"],
      ["kubeadm", "join", "--config", "/etc/kubernetes/kubeadm-join.yaml"],
    ]
  }
}

# With a bootstrap: the node software pinned, from where it says (constructs/render/node-software.ts renders the same
# document). Values are quoted for sh as the renderer quotes them: in single quotes, a single quote closed, escaped
# and opened again. The pieces are JSON until the end, so the three modes' different shapes make one value.
locals {
  packages   = var.bootstrap == null ? false : var.bootstrap.mode != "preinstalled"
  k8s        = var.bootstrap == null ? "" : "v${var.bootstrap.kubernetes}"
  version    = var.bootstrap == null ? "" : "${var.bootstrap.kubernetes}-${var.bootstrap.package_revision}"
  pin        = try("'${replace(var.bootstrap.containerd, "'", "'\\''")}'", "")
  proxy      = try(var.bootstrap.proxy, null)
  https      = try(coalesce(local.proxy.https, local.proxy.http), null)
  api_host   = lower(local.endpoint_parts[0])
  join_path  = "/usr/local/sbin/metalslice-join"
  upstream   = var.bootstrap == null ? "" : "https://pkgs.k8s.io/core:/stable:/v${join(".", slice(split(".", var.bootstrap.kubernetes), 0, 2))}/deb/"
  sandbox    = try("'${replace("s#sandbox_image = .*#sandbox_image = \"${var.bootstrap.sandbox_image}\"#", "'", "'\\''")}'", null)
  containerd = try(var.bootstrap.containerd, null)

  containerd_check = local.containerd == null ? [] : local.packages ? [
    "found=$(dpkg -s containerd 2>/dev/null | sed -n 's/^Version: //p')",
    "[ -n \"$found\" ] || found=missing",
    "[ \"$found\" = ${local.pin} ] || stop \"containerd is $found, the cluster pins ${local.containerd}\"",
    ] : [
    "found=$(containerd --version 2>/dev/null || echo missing)",
    "case \" $found \" in *\" \"${local.pin}\" \"*|*\" v\"${local.pin}\" \"*) ;; *) stop \"containerd is $found, the cluster pins ${local.containerd}\" ;; esac",
  ]
  containerd_setup = concat(
    local.packages ? ["mkdir -p /etc/containerd", "containerd config default | sed -e 's/SystemdCgroup = false/SystemdCgroup = true/'${local.sandbox == null ? "" : " -e ${local.sandbox}"} > /etc/containerd/config.toml"] : [],
    local.packages || local.proxy != null ? ["systemctl daemon-reload", "systemctl restart containerd"] : [],
  )
  join_script = var.bootstrap == null ? "" : "${join("\n", concat(
    [
      "#!/bin/sh",
      "# metalslice: this node's software must be the cluster's pins (bootstrap ${var.bootstrap.mode}); then it joins.",
      "set -eu",
      "stop() { echo \"metalslice: $*; this node does not join (README \\\"Node software\\\")\" >&2; exit 1; }",
      "found=$(kubelet --version 2>/dev/null || echo missing)",
      "[ \"$found\" = 'Kubernetes ${local.k8s}' ] || stop \"kubelet is $found, the cluster pins ${local.k8s}\"",
      "found=$(kubeadm version -o short 2>/dev/null || echo missing)",
      "[ \"$found\" = '${local.k8s}' ] || stop \"kubeadm is $found, the cluster pins ${local.k8s}\"",
    ],
    local.containerd_check,
    local.containerd_setup,
    ["systemctl enable --now containerd kubelet", "exec kubeadm join --config /etc/kubernetes/kubeadm-join.yaml"],
  ))}\n"

  proxy_files = local.proxy == null ? [] : [{
    path        = "/etc/systemd/system/containerd.service.d/http-proxy.conf"
    permissions = "0644"
    content = "${join("\n", concat(
      ["[Service]"],
      local.proxy.http == null ? [] : ["Environment=\"HTTP_PROXY=${local.proxy.http}\""],
      local.https == null ? [] : ["Environment=\"HTTPS_PROXY=${local.https}\""],
      ["Environment=\"NO_PROXY=${join(",", distinct(concat(local.proxy.no_proxy, [local.api_host, "localhost", "127.0.0.1"])))}\""],
    ))}\n"
  }]

  repos = try(var.bootstrap.repositories, null)
  apt = merge(
    { preserve_sources_list = try(local.repos.distribution, null) == null },
    jsondecode(try(local.repos.distribution, null) == null ? "{}" : jsonencode({ primary = [{ arches = ["default"], uri = local.repos.distribution }] })),
    jsondecode(try(local.repos.security, null) == null ? "{}" : jsonencode({ security = [{ arches = ["default"], uri = local.repos.security }] })),
    jsondecode(local.repos == null ? "{}" : jsonencode({ sources = { kubernetes = { source = "deb [signed-by=$KEY_FILE] ${local.repos.kubernetes} /", key = local.repos.kubernetes_key } } })),
    try(local.proxy.http, null) == null ? {} : { http_proxy = local.proxy.http },
    local.https == null ? {} : { https_proxy = local.https },
    # apt's own settings: no recommended packages, and the no-proxy hosts (apt takes single hosts only) direct.
    { conf = "${join("\n", concat(["APT::Install-Recommends \"false\";"], flatten([for h in try(local.proxy.no_proxy, []) : ["Acquire::http::Proxy::${h} \"DIRECT\";", "Acquire::https::Proxy::${h} \"DIRECT\";"] if can(regex("^[A-Za-z0-9][A-Za-z0-9.-]*$|^[0-9A-Fa-f:]+$", h))])))}\n" },
  )
  hold        = ["apt-mark", "hold", "containerd", "kubelet", "kubeadm"]
  curl        = "curl -fsSL${local.https == null ? "" : " --proxy '${replace(coalesce(local.https, "-"), "'", "'\\''")}'"} ${local.upstream}Release.key | gpg --dearmor --yes -o ${local.keyring}"
  mode        = try(var.bootstrap.mode, "")
  base_runcmd = [["modprobe", "overlay"], ["modprobe", "br_netfilter"], ["sysctl", "--system"]]

  pinned_cloud_config = var.bootstrap == null ? "" : jsonencode(merge(
    {
      hostname    = var.node_name
      fqdn        = var.node_name
      write_files = concat(local.join_files, local.proxy_files, [{ path = local.join_path, permissions = "0700", owner = "root:root", content = local.join_script }])
    },
    jsondecode(local.packages ? jsonencode({ apt = local.apt }) : "{}"),
    jsondecode(local.mode == "mirror" ? jsonencode({ package_update = true, packages = [["containerd", local.containerd], ["kubelet", local.version], ["kubeadm", local.version]] }) : "{}"),
    jsondecode(local.mode == "internet" ? jsonencode({ package_update = true, packages = [["containerd", local.containerd], "apt-transport-https", "ca-certificates", "curl", "gpg"] }) : "{}"),
    {
      runcmd = jsondecode(
        local.mode == "preinstalled" ? jsonencode(concat(local.base_runcmd, [[local.join_path]])) :
        local.mode == "mirror" ? jsonencode(concat(local.base_runcmd, [local.hold, [local.join_path]])) :
        jsonencode(concat(local.base_runcmd, [
          ["mkdir", "-p", "-m", "0755", "/etc/apt/keyrings"],
          ["sh", "-c", local.curl],
          ["sh", "-c", "echo \"deb [signed-by=${local.keyring}] ${local.upstream} /\" > /etc/apt/sources.list.d/kubernetes.list"],
          ["apt-get", "update"],
          ["apt-get", "install", "-y", "kubelet=${local.version}", "kubeadm=${local.version}"],
          local.hold,
          [local.join_path],
        ]))
      )
    },
  ))
}
