#!/usr/bin/env bash
# A node's first boot in a real VM (test/boot): builds (or finds cached) the toolchain and the node images, the
# preinstalled one and the mirror one (scripts/node-image.sh, which installs QEMU and the image tools from Debian),
# then runs jest's boot project serially. The VMs run under QEMU's software emulation (TCG), so no KVM is
# needed; needs root.
# Extra arguments go to jest (e.g. scripts/test-boot.sh -t 'refuses').
set -euo pipefail
cd "$(dirname "$0")/.."
node_bin=$(bash scripts/node.sh)
[[ -z "$node_bin" ]] || export PATH="$node_bin:$PATH"
env_file=$(bash scripts/toolchain.sh | tail -n 1)
# shellcheck source=/dev/null
source "$env_file"
bash scripts/node-image.sh --variant preinstalled >/dev/null
bash scripts/node-image.sh --variant mirror >/dev/null
exec npx jest --selectProjects boot --runInBand "$@"
