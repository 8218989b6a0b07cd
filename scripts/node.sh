#!/usr/bin/env bash
# The Node.js the tests run on: the machine's `node` when it is 22 or newer, else the pinned Node 22 LTS below,
# fetched once from the npm registry (the node-linux-<arch> package is the official binary; `npm pack` checks its
# registry integrity and this script checks it against the pinned one) and cached beside the toolchain.
# Prints the directory to put first on PATH (empty when the machine's node will do).
#
# Usage: scripts/node.sh [--print]   --print: print the directory only if nothing needs fetching (exit 1 if not)
# Cache: ${METALSLICE_TOOLCHAIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/metalslice/toolchain}/node/v$NODE_VERSION/
# Cold: ~51 MB download and unpack (measured in the README); warm: a version check.
set -euo pipefail

NODE_VERSION=22.23.3
NODE_MIN_MAJOR=22
declare -A NODE_INTEGRITY=(
  [x64]='sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng=='
  [arm64]='sha512-l3DAHZreylo+p9QXDtsOrjG2JXJqVzYXnAGmIQNOUNARcMppTO2cmewVQP+36tjJnSE+dzpMNtgW+c3oiDvXtA=='
)

CACHE="${METALSLICE_TOOLCHAIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/metalslice/toolchain}"
DIR="$CACHE/node/v$NODE_VERSION"

log() { printf 'node: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# The machine's node is enough when it is at least NODE_MIN_MAJOR (and no older node of ours is asked for).
machine_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [[ "$machine_major" -ge "$NODE_MIN_MAJOR" && -z "${METALSLICE_PINNED_NODE:-}" ]]; then
  echo ""
  exit 0
fi

if [[ -x "$DIR/bin/node" && -f "$DIR/.done" ]]; then
  echo "$DIR/bin"
  exit 0
fi
[[ "${1:-}" == "--print" ]] && die "Node $NODE_VERSION is not cached; run scripts/node.sh"

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) arch=x64 ;;
  Linux-aarch64 | Linux-arm64) arch=arm64 ;;
  *) die "no pinned Node $NODE_VERSION for $(uname -s) $(uname -m): install Node $NODE_MIN_MAJOR or newer yourself (the machine has $(node --version 2>/dev/null || echo none))" ;;
esac
command -v npm >/dev/null || die "npm not found: it fetches Node $NODE_VERSION from the npm registry"

mkdir -p "$CACHE/node"
exec 8>"$CACHE/node/.lock"
flock 8
if [[ -x "$DIR/bin/node" && -f "$DIR/.done" ]]; then
  echo "$DIR/bin"
  exit 0
fi

t0=$SECONDS
log "the machine's node is $(node --version 2>/dev/null || echo missing); fetching Node $NODE_VERSION (node-linux-$arch from the npm registry)"
work=$(mktemp -d "$CACHE/node/.fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack "node-linux-$arch@$NODE_VERSION" --silent --ignore-scripts >/dev/null) || die "npm pack node-linux-$arch@$NODE_VERSION failed (is the npm registry reachable?)"
tgz="$work/node-linux-$arch-$NODE_VERSION.tgz"
[[ -f "$tgz" ]] || die "npm pack did not write $tgz"
got=$(node -e 'process.stdout.write("sha512-" + require("crypto").createHash("sha512").update(require("fs").readFileSync(process.argv[1])).digest("base64"))' "$tgz")
[[ "$got" == "${NODE_INTEGRITY[$arch]}" ]] || die "node-linux-$arch@$NODE_VERSION does not have the pinned integrity (got $got)"
mkdir -p "$work/unpacked"
tar -xzf "$tgz" -C "$work/unpacked" package/bin/node package/LICENSE
"$work/unpacked/package/bin/node" --version | grep -qx "v$NODE_VERSION" || die "the fetched node does not report v$NODE_VERSION"
rm -rf "$DIR" && mkdir -p "$DIR"
mv "$work/unpacked/package/bin" "$work/unpacked/package/LICENSE" "$DIR/"
touch "$DIR/.done"
log "Node $NODE_VERSION ready in $DIR ($((SECONDS - t0)) s)"
echo "$DIR/bin"
