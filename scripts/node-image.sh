#!/usr/bin/env bash
# Builds a node image the first-boot test (test/boot) starts under QEMU: Debian bookworm with systemd, cloud-init
# (NoCloud only) and the CNI plugins. Two variants, each cached on its own:
#   preinstalled (default)  also containerd and runc from Debian and the toolchain's own kubelet and kubeadm
#                           (scripts/toolchain.sh builds them), so a node's user data only has to configure and join
#   mirror                  none of those four: a node's user data installs them with apt, through the fleet's
#                           mirror and proxy (test/boot/apt-mirror.ts); its apt sources stay deb.debian.org
# Everything comes from the Debian mirror and this machine: no registry, no download of a prebuilt binary.
#
# The image holds two container images of its own, built here from C as OCI archives and imported into
# containerd's k8s.io namespace at boot, before the kubelet needs them:
#   localhost/metalslice/pause:1     the pod sandbox (containerd's sandbox_image): waits until stopped
#   localhost/metalslice/workload:1  a test workload: says when it starts, and on SIGTERM says so and exits 0
#
# Output, in $CACHE/<variant>-<key>/ (key: this script's and its files' hashes and the kubelet/kubeadm versions, so
# a rerun is instant):
#   rootfs.raw   ext4 filesystem of the whole disk (no partition table), root=/dev/vda; boot it through a
#                copy-on-write overlay so it stays clean
#   vmlinuz, initrd.img   the image's own kernel and initramfs, for qemu -kernel/-initrd
#   image.env    KEY=VALUE facts: paths, kernel command line, kubelet version, image names, containerd's package
# Prints the directory last.
#
# Usage: scripts/node-image.sh [--print-dir] [--variant preinstalled|mirror]
#   --print-dir  print the directory if the image is built (exit 1 if not), build nothing
#   --variant    which image (or NODE_IMAGE_VARIANT); default preinstalled
# Needs root (mmdebstrap in root mode, files owned by root in the image). Installs its Debian packages itself.
set -euo pipefail

SCRIPT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
# Files the image shares with the boot test's packages (the kubelet's unit and kubeadm's drop-in).
FILES="$(dirname "$SCRIPT")/node-image"
CACHE="${METALSLICE_NODE_IMAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/metalslice/node-image}"
MIRROR="${METALSLICE_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
SUITE=bookworm
DISK_SIZE=6G
PAUSE_IMAGE=localhost/metalslice/pause:1
WORKLOAD_IMAGE=localhost/metalslice/workload:1

log() { printf 'node-image: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

VARIANT="${NODE_IMAGE_VARIANT:-preinstalled}"
PRINT_DIR=false
while [[ $# -gt 0 ]]; do
  case $1 in
    --print-dir) PRINT_DIR=true ;;
    --variant) VARIANT=${2:-}; shift ;;
    --variant=*) VARIANT=${1#--variant=} ;;
    *) die "unknown argument $1" ;;
  esac
  shift
done
[[ $VARIANT == preinstalled || $VARIANT == mirror ]] || die "unknown variant '$VARIANT' (preinstalled or mirror)"

# command:package pairs (or file:package, for a path starting with /); installs the packages of what is missing.
apt_install() {
  local missing=()
  for pair in "$@"; do
    local what=${pair%%:*}
    if [[ $what == /* ]]; then
      [[ -e $what ]] || missing+=("${pair#*:}")
    else
      PATH="/usr/sbin:/sbin:$PATH" command -v "$what" >/dev/null 2>&1 || missing+=("${pair#*:}")
    fi
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  log "installing Debian packages: ${missing[*]}"
  command -v apt-get >/dev/null || die "apt-get not found; install ${missing[*]} by hand"
  local sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  $sudo apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The kubelet and kubeadm that go into the image: the toolchain's, which the control plane is built from too.
toolchain_env=$(bash "$(dirname "$SCRIPT")/toolchain.sh" --print-env 2>/dev/null) || die "the toolchain is not built: run scripts/toolchain.sh"
# shellcheck source=/dev/null
source "$toolchain_env"
KUBELET=$(command -v kubelet) || die "kubelet not on the toolchain's PATH"
KUBEADM=$(command -v kubeadm) || die "kubeadm not on the toolchain's PATH"
KUBELET_VERSION=$("$KUBELET" --version | awk '{print $2}')
KUBEADM_VERSION=$("$KUBEADM" version -o short)

KEY=$( { sha256sum "$SCRIPT" "$FILES"/* | cut -d' ' -f1; echo "variant=$VARIANT kubelet=$KUBELET_VERSION kubeadm=$KUBEADM_VERSION suite=$SUITE"; } | sha256sum | cut -c1-16)
OUT="$CACHE/$VARIANT-$KEY"

if [[ -f "$OUT/done" ]]; then
  echo "$OUT"
  exit 0
fi
$PRINT_DIR && exit 1
[[ $(id -u) -eq 0 ]] || die "needs root (mmdebstrap builds the root filesystem in root mode)"

# mkfs.ext4 -d fills the filesystem from a directory, so no loop device or mount is needed.
# What booting it takes on this machine (test/boot/qemu.ts): QEMU, a vfat seed, and socat, which carries each
# guest connection to the API server (QEMU's guestfwd to a tcp chardev would carry only one, opened at start).
apt_install mmdebstrap:mmdebstrap mkfs.ext4:e2fsprogs qemu-system-x86_64:qemu-system-x86 qemu-img:qemu-utils \
  mkfs.vfat:dosfstools mcopy:mtools socat:socat gcc:gcc /usr/lib/x86_64-linux-gnu/libc.a:libc6-dev

mkdir -p "$CACHE"
# One build at a time; a run that waited here finds the image the other built.
exec 9>"$CACHE/.lock"
flock 9
if [[ -f "$OUT/done" ]]; then
  echo "$OUT"
  exit 0
fi
start=$(date +%s)
WORK=$(mktemp -d "$CACHE/.build-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
ROOT="$WORK/root"

# --- the root filesystem ---------------------------------------------------------------------------------
# udev: tags the ACPI power button so systemd-logind turns a press into a shutdown (how KubeVirt stops a VM);
# dbus: logind's inhibitor locks, which the kubelet's graceful node shutdown takes; procps: sysctl.
PACKAGES=(
  systemd-sysv udev dbus procps kmod iproute2 iptables conntrack ethtool socat ca-certificates
  cloud-init linux-image-cloud-amd64 initramfs-tools
  containernetworking-plugins
)
if [[ $VARIANT == preinstalled ]]; then
  PACKAGES+=(containerd runc)
else
  # cloud-init's apt module turns the mirror's ASCII-armored key into a keyring with gpg.
  PACKAGES+=(gpg)
fi
log "debootstrapping $SUITE from $MIRROR for the $VARIANT image (${PACKAGES[*]})"
# The package lists stay until the disk is made: the mirror image reads containerd's candidate from them.
mmdebstrap --mode=root --variant=apt --format=directory \
  --include="$(IFS=,; echo "${PACKAGES[*]}")" \
  --aptopt='Acquire::Retries "3"' --skip=cleanup/apt/lists \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
  "$SUITE" "$ROOT" "$MIRROR" >"$WORK/mmdebstrap.log" 2>&1 || { tail -40 "$WORK/mmdebstrap.log" >&2; die "mmdebstrap failed"; }

# The kernel must take a virtio disk and network, an ext4 root, and the ACPI power button.
kver=$(basename "$(ls -d "$ROOT"/lib/modules/*)")
kconfig="$ROOT/boot/config-$kver"
for opt in CONFIG_VIRTIO_BLK CONFIG_VIRTIO_NET CONFIG_VIRTIO_PCI CONFIG_EXT4_FS CONFIG_ACPI_BUTTON CONFIG_INPUT_EVDEV CONFIG_BRIDGE_NETFILTER CONFIG_OVERLAY_FS; do
  grep -Eq "^$opt=(y|m)" "$kconfig" || die "kernel $kver lacks $opt"
done
log "kernel $kver: $(grep -E '^CONFIG_(VIRTIO_BLK|ACPI_BUTTON|EXT4_FS)=' "$kconfig" | tr '\n' ' ')"

# Debian puts the CNI plugins in /usr/lib/cni; containerd is told so below, and /opt/cni/bin (where the
# kubelet's and containerd's defaults look) points there for anything else that looks.
[[ -x "$ROOT/usr/lib/cni/bridge" && -x "$ROOT/usr/lib/cni/host-local" && -x "$ROOT/usr/lib/cni/loopback" ]] || die "CNI plugins not in /usr/lib/cni"
mkdir -p "$ROOT/opt/cni"
ln -sfn /usr/lib/cni "$ROOT/opt/cni/bin"

if [[ $VARIANT == preinstalled ]]; then
  # containerd's version as `containerd --version` prints it (its third word), what a preinstalled pin names;
  # and its package's version.
  CONTAINERD_VERSION=$(chroot "$ROOT" containerd --version | awk '{print $3}')
  [[ -n "$CONTAINERD_VERSION" ]] || die "cannot read containerd's version in the image"
  CONTAINERD_PACKAGE=$(chroot "$ROOT" dpkg-query -W -f='${Version}' containerd)
  install -m 0755 "$KUBELET" "$ROOT/usr/bin/kubelet"
  install -m 0755 "$KUBEADM" "$ROOT/usr/bin/kubeadm"
  IMAGE_KUBELET_VERSION=$KUBELET_VERSION
  IMAGE_KUBEADM_VERSION=$KUBEADM_VERSION
else
  IMAGE_KUBELET_VERSION=""
  IMAGE_KUBEADM_VERSION=""
  # Not installed: the package version the image's own sources offer (what a mirror node's pin must name, as long
  # as the archive serves it), read while the image still has its package lists.
  CONTAINERD_VERSION=""
  CONTAINERD_PACKAGE=$(chroot "$ROOT" apt-cache policy containerd | sed -n 's/^ *Candidate: //p')
  [[ -n "$CONTAINERD_PACKAGE" && "$CONTAINERD_PACKAGE" != "(none)" ]] || die "the image's sources offer no containerd"
  for absent in containerd runc kubelet kubeadm; do
    [[ ! -e "$ROOT/usr/bin/$absent" && ! -e "$ROOT/usr/sbin/$absent" ]] || die "$absent is in the mirror image"
  done
fi

echo "metalslice-node" >"$ROOT/etc/hostname"
printf '127.0.0.1\tlocalhost\n' >"$ROOT/etc/hosts"
# No DNS: the node reaches nothing but its control plane, by address.
printf '# this node has no name server; it reaches only its control plane, by address\n' >"$ROOT/etc/resolv.conf"
printf '/dev/vda\t/\text4\tdefaults,errors=remount-ro\t0\t1\n' >"$ROOT/etc/fstab"

# Network: DHCP on the one NIC (QEMU's user network hands out 10.0.2.15); cloud-init leaves it alone.
cat >"$ROOT/etc/systemd/network/10-nic.network" <<'EOF'
[Match]
Name=eth* en*

[Network]
DHCP=ipv4
# QEMU's restricted user network hands out no router; the kubelet takes the node's address from the interface
# of the default route, so there is one (nothing answers beyond the API server's forward anyway).
Gateway=10.0.2.2
LinkLocalAddressing=no
IPv6AcceptRA=no
EOF

# cloud-init: the NoCloud seed only (no network metadata services to wait for), no network config of its own,
# and only the modules a node's user data uses (hostname, write_files, runcmd): the image has no ssh, no
# locales and no default user, and its filesystem is as large as it is built.
cat >"$ROOT/etc/cloud/cloud.cfg.d/10-metalslice.cfg" <<'EOF'
datasource_list: [NoCloud, None]
# The node's own name resolves (kubeadm's preflight looks it up; there is no DNS).
manage_etc_hosts: localhost
network:
  config: disabled
cloud_init_modules: [seed_random, bootcmd, write_files, set_hostname, update_hostname, update_etc_hosts]
cloud_config_modules: [runcmd]
cloud_final_modules: [scripts_per_once, scripts_per_boot, scripts_per_instance, scripts_user, final_message]
EOF
if [[ $VARIANT == mirror ]]; then
  # A mirror node's user data also configures apt (its sources, key and proxy) and installs the pinned packages,
  # before runcmd's script runs (scripts_user).
  sed -i -e 's/^cloud_config_modules: \[runcmd\]/cloud_config_modules: [apt_configure, runcmd]/' \
    -e 's/^cloud_final_modules: \[/cloud_final_modules: [package_update_upgrade_install, /' "$ROOT/etc/cloud/cloud.cfg.d/10-metalslice.cfg"
fi

# containerd: systemd cgroups (as the kubelet's cgroupDriver), the sandbox image this image carries, Debian's CNI
# plugins. (On a mirror node the join script writes containerd's config once the package is installed.)
[[ $VARIANT == mirror ]] || cat >"$ROOT/etc/containerd/config.toml" <<EOF
version = 2

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$PAUSE_IMAGE"

  [plugins."io.containerd.grpc.v1.cri".containerd]
    default_runtime_name = "runc"

    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"

      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = true

  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "/etc/cni/net.d"
EOF

# Pod network on this one node: a bridge, addresses from a local range, and loopback in each pod.
mkdir -p "$ROOT/etc/cni/net.d"
cat >"$ROOT/etc/cni/net.d/10-pods.conflist" <<'EOF'
{
  "cniVersion": "1.0.0",
  "name": "pods",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "cni0",
      "isGateway": true,
      "ipMasq": true,
      "ipam": {
        "type": "host-local",
        "ranges": [[{ "subnet": "10.244.0.0/24" }]],
        "routes": [{ "dst": "0.0.0.0/0" }]
      }
    },
    { "type": "loopback" }
  ]
}
EOF

# The kubelet's unit and kubeadm's drop-in: in the image when it carries the kubelet; on a mirror node, its packages
# install them.
if [[ $VARIANT == preinstalled ]]; then
  install -m 0644 "$FILES/kubelet.service" "$ROOT/etc/systemd/system/kubelet.service"
  install -D -m 0644 "$FILES/10-kubeadm.conf" "$ROOT/etc/systemd/system/kubelet.service.d/10-kubeadm.conf"
fi

# The container images this image carries, into containerd before the kubelet asks for them (the kubelet's unit
# wants this one). On a mirror node containerd is installed at first boot: the import runs when the join script
# starts the kubelet, once containerd and its ctr are there.
mkdir -p "$ROOT/usr/share/metalslice/images"
if [[ $VARIANT == preinstalled ]]; then
  needs_containerd=Requires=containerd.service
else
  needs_containerd=ConditionPathExists=/usr/bin/ctr
fi
cat >"$ROOT/etc/systemd/system/metalslice-images.service" <<EOF
[Unit]
Description=Import the node's own container images into containerd
$needs_containerd
After=containerd.service
Before=kubelet.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/bin/sh -c 'for f in /usr/share/metalslice/images/*.tar; do ctr --namespace k8s.io images import --all-platforms "\$f" || exit 1; done'

[Install]
WantedBy=multi-user.target
EOF

if [[ $VARIANT == preinstalled ]]; then
  chroot "$ROOT" systemctl enable systemd-networkd.service containerd.service metalslice-images.service >/dev/null 2>&1
else
  chroot "$ROOT" systemctl enable systemd-networkd.service >/dev/null 2>&1
fi
# A serial console for looking in by hand (no password: the VM is reachable only through its own console).
chroot "$ROOT" passwd -d root >/dev/null

# --- the container images ----------------------------------------------------------------------------------
SRC="$WORK/src"
mkdir -p "$SRC"
cat >"$SRC/pause.c" <<'EOF'
/* The pod sandbox's process: holds the pod's namespaces until it is told to stop. */
#include <signal.h>
#include <unistd.h>

static void stop(int sig) { (void)sig; _exit(0); }

int main(void) {
  signal(SIGTERM, stop);
  signal(SIGINT, stop);
  for (;;) pause();
}
EOF
cat >"$SRC/workload.c" <<'EOF'
/* A test workload: runs until SIGTERM, says it got it, and exits 0, so a graceful stop shows in its status.
   STOP_DELAY_SECONDS=N makes it take N seconds to stop after SIGTERM, as a workload that drains its work. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stopping;

static void on_term(int sig) { (void)sig; stopping = 1; }

int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_term;
  sigaction(SIGTERM, &sa, NULL);
  printf("workload: started\n");
  fflush(stdout);
  while (!stopping) pause();
  const char *delay = getenv("STOP_DELAY_SECONDS");
  unsigned seconds = delay ? (unsigned)strtoul(delay, NULL, 10) : 0;
  printf("workload: received SIGTERM, exiting 0 in %u s\n", seconds);
  fflush(stdout);
  while (seconds > 0) seconds = sleep(seconds);
  FILE *log = fopen("/dev/termination-log", "w");
  if (log) {
    fputs("received SIGTERM\n", log);
    fclose(log);
  }
  return 0;
}
EOF

# An OCI image archive of one static binary: an uncompressed layer, a config, a manifest, and an index whose
# annotation gives containerd the image's name.
oci_image() {
  local name=$1 ref=$2 binary=$3 archive=$4
  local d="$WORK/oci-$name" layer="$WORK/layer-$name"
  mkdir -p "$d/blobs/sha256" "$layer"
  install -m 0755 "$binary" "$layer/$name"
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$layer" -cf "$WORK/$name-layer.tar" "$name"
  local layer_digest layer_size config config_digest manifest manifest_digest
  layer_digest=$(sha256sum "$WORK/$name-layer.tar" | cut -d' ' -f1)
  layer_size=$(stat -c %s "$WORK/$name-layer.tar")
  mv "$WORK/$name-layer.tar" "$d/blobs/sha256/$layer_digest"
  config=$(printf '{"architecture":"amd64","os":"linux","config":{"Entrypoint":["/%s"],"WorkingDir":"/"},"rootfs":{"type":"layers","diff_ids":["sha256:%s"]},"history":[{"created_by":"scripts/node-image.sh: gcc -static %s.c"}]}' "$name" "$layer_digest" "$name")
  config_digest=$(printf '%s' "$config" | sha256sum | cut -d' ' -f1)
  printf '%s' "$config" >"$d/blobs/sha256/$config_digest"
  manifest=$(printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:%s","size":%d},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar","digest":"sha256:%s","size":%d}]}' \
    "$config_digest" "${#config}" "$layer_digest" "$layer_size")
  manifest_digest=$(printf '%s' "$manifest" | sha256sum | cut -d' ' -f1)
  printf '%s' "$manifest" >"$d/blobs/sha256/$manifest_digest"
  printf '{"imageLayoutVersion":"1.0.0"}' >"$d/oci-layout"
  printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:%s","size":%d,"platform":{"architecture":"amd64","os":"linux"},"annotations":{"io.containerd.image.name":"%s","org.opencontainers.image.ref.name":"%s"}}]}' \
    "$manifest_digest" "${#manifest}" "$ref" "${ref##*:}" >"$d/index.json"
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$d" -cf "$archive" oci-layout index.json blobs
}
for prog in pause workload; do
  gcc -static -Os -s -o "$SRC/$prog" "$SRC/$prog.c"
done
oci_image pause "$PAUSE_IMAGE" "$SRC/pause" "$ROOT/usr/share/metalslice/images/pause.tar"
oci_image workload "$WORKLOAD_IMAGE" "$SRC/workload" "$ROOT/usr/share/metalslice/images/workload.tar"

# --- the disk -------------------------------------------------------------------------------------------------
mkdir -p "$WORK/out"
cp "$ROOT/boot/vmlinuz-$kver" "$WORK/out/vmlinuz"
cp "$ROOT/boot/initrd.img-$kver" "$WORK/out/initrd.img"
# Machine identity is made on first boot (as on any cloud image), so every VM from this image is its own machine.
: >"$ROOT/etc/machine-id"
rm -f "$ROOT/var/lib/dbus/machine-id"
rm -rf "$ROOT/var/cache/apt/archives"/*.deb "$ROOT/var/lib/apt/lists"/*
mkfs.ext4 -q -L metalslice-root -d "$ROOT" "$WORK/out/rootfs.raw" "$DISK_SIZE" >/dev/null

cat >"$WORK/out/image.env" <<EOF
NODE_IMAGE_KEY=$KEY
NODE_IMAGE_VARIANT=$VARIANT
NODE_IMAGE_DISK=$OUT/rootfs.raw
NODE_IMAGE_DISK_FORMAT=raw
NODE_IMAGE_KERNEL=$OUT/vmlinuz
NODE_IMAGE_INITRD=$OUT/initrd.img
NODE_IMAGE_CMDLINE="root=/dev/vda rw console=ttyS0,115200 net.ifnames=0"
NODE_IMAGE_KERNEL_VERSION=$kver
NODE_IMAGE_KUBELET_VERSION=$IMAGE_KUBELET_VERSION
NODE_IMAGE_KUBEADM_VERSION=$IMAGE_KUBEADM_VERSION
NODE_IMAGE_CONTAINERD_VERSION=$CONTAINERD_VERSION
NODE_IMAGE_CONTAINERD_PACKAGE=$CONTAINERD_PACKAGE
NODE_IMAGE_PAUSE=$PAUSE_IMAGE
NODE_IMAGE_WORKLOAD=$WORKLOAD_IMAGE
EOF
touch "$WORK/out/done"
rm -rf "$OUT"
mv "$WORK/out" "$OUT"
# Images of this variant from an older script or toolchain are never booted again; each is gigabytes (sparse).
# (So are those from before the variants, named by their key alone.)
for old in "$CACHE"/*/; do
  name=$(basename "$old")
  if [[ "${old%/}" != "$OUT" && ( $name == "$VARIANT-"* || $name =~ ^[0-9a-f]{16}$ ) ]]; then
    rm -rf "${old%/}"
  fi
done
log "built $OUT in $(($(date +%s) - start)) s"
echo "$OUT"
