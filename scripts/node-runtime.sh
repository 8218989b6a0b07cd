#!/usr/bin/env bash
# Installs, from Debian's packages and only when missing, what a kubeadm worker node needs beside kubeadm
# and kubelet (which scripts/toolchain.sh builds): containerd and runc as the container runtime, and the
# host tools kubeadm's preflight checks look for (conntrack, iptables, ip, nsenter, mount). The join e2e
# test (test/e2e/join.test.ts) runs it before it tries a real kubelet; a machine where apt-get cannot
# install them makes that test fall back to emulating the kubelet's part, and say why.
#
# Usage: scripts/node-runtime.sh        (exit 0 when everything is on PATH afterwards)
set -euo pipefail

log() { printf 'node-runtime: %s\n' "$*" >&2; }

# command:package pairs
wanted=(containerd:containerd runc:runc conntrack:conntrack iptables:iptables ip:iproute2 nsenter:util-linux mount:mount)
missing=()
for pair in "${wanted[@]}"; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || PATH="/usr/sbin:/sbin:$PATH" command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi
command -v apt-get >/dev/null || { log "apt-get not found; cannot install ${missing[*]}"; exit 1; }
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
log "installing Debian packages: ${missing[*]}"
$sudo apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
for pair in "${wanted[@]}"; do
  PATH="/usr/sbin:/sbin:$PATH" command -v "${pair%%:*}" >/dev/null 2>&1 || { log "${pair%%:*} still missing after installing ${pair#*:}"; exit 1; }
done
