#!/usr/bin/env bash
# Builds (once) and caches a Go test oracle: a small program under test/oracles/<dir> that runs an upstream
# component's own code (KubeVirt's launcher-pod rendering, vCluster's config validation) on what metalslice
# renders or reads. Prints the binary's path on stdout; logs on stderr.
#
# Usage: scripts/go-oracle.sh <dir under test/oracles> <cache name> <upstream version> <binary name> [--print-path]
#   --print-path  print the binary's path only if it is already built (exit 1 if not), build nothing
# GO_ORACLE_ALSO="pkg ..." (optional): more main packages of the oracle's module graph, built by the same
#   `go build` into the same directory under their own names (kubevirt-oracle.sh: virt-api, virt-controller and
#   the manifest generator); the oracle's path is printed, the others are its siblings.
#
# Cache: ${METALSLICE_TOOLCHAIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/metalslice/toolchain}/<cache name>/
#   <version>-<hash of the oracle's go.mod, go.sum and *.go>/<binary name>
# so editing an oracle builds a new binary and a warm run is a no-op (0.2 s, hashing the sources).
# The wrappers (kubevirt-oracle.sh, vcluster-oracle.sh) note each oracle's cold build time.
set -euo pipefail

[[ $# -ge 4 ]] || { echo "usage: scripts/go-oracle.sh <dir> <cache name> <version> <binary> [--print-path]" >&2; exit 2; }
NAME="$1" CACHE_NAME="$2" VERSION="$3" BINARY="$4"
shift 4
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SRC="$ROOT/test/oracles/$NAME"
CACHE="${METALSLICE_TOOLCHAIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/metalslice/toolchain}"

log() { printf '%s: %s\n' "$CACHE_NAME" "$*" >&2; }
die() { log "error: $*"; exit 1; }

[[ -f "$SRC/go.mod" ]] || die "no oracle sources at $SRC"
HASH="$(cd "$SRC" \
  && find . -type f \( -name go.mod -o -name go.sum -o -name '*.go' \) -not -path './testdata/*' -print0 \
  | LC_ALL=C sort -z | xargs -0 sha256sum | { cat; [[ -z "${GO_ORACLE_ALSO:-}" ]] || echo "also: $GO_ORACLE_ALSO"; } | sha256sum | cut -c1-16)"
DIR="$CACHE/$CACHE_NAME/$VERSION-$HASH"
BIN="$DIR/$BINARY"
read -r -a ALSO <<<"${GO_ORACLE_ALSO:-}"
# Every binary of the build is there (the oracle is moved in last, so its presence alone would do; this also
# catches a hand-deleted sibling).
built() {
  [[ -x "$BIN" ]] || return 1
  local p
  for p in "${ALSO[@]}"; do [[ -x "$DIR/${p##*/}" ]] || return 1; done
}

if [[ "${1:-}" == "--print-path" ]]; then
  built || die "oracle is not built; run scripts/$CACHE_NAME.sh"
  echo "$BIN"
  exit 0
fi
[[ $# -eq 0 ]] || die "unknown argument: $1"

if built; then
  log "up to date: $BIN"
  echo "$BIN"
  exit 0
fi

GO="$(command -v go || true)"
[[ -n "$GO" ]] || GO=/usr/local/go/bin/go
[[ -x "$GO" ]] || die "go not found (PATH or /usr/local/go/bin)"

mkdir -p "$DIR"
# One build at a time per oracle (a second caller waits, then finds the binary).
if command -v flock >/dev/null; then
  exec 9>"$CACHE/$CACHE_NAME/.lock"
  flock 9
  if built; then
    log "built meanwhile: $BIN"
    echo "$BIN"
    exit 0
  fi
fi

log "building the $NAME oracle ($VERSION) with $("$GO" version)"
start=$SECONDS
tmp="$(mktemp -d "$DIR/.build.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
(
  cd "$SRC"
  # -mod=readonly: go.mod/go.sum are the lock; a build never rewrites them. With a directory as -o, the
  # module's own main package is written under the module path's last element.
  GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="-trimpath -buildvcs=false -mod=readonly" \
    "$GO" build -p 2 -o "$tmp/" . "${ALSO[@]}"
)
main="$tmp/$(sed -n 's/^module[[:space:]]*//p' "$SRC/go.mod" | head -n1 | sed 's#.*/##')"
[[ -x "$main" ]] || die "go build wrote no $main"
for p in "${ALSO[@]}"; do mv -f "$tmp/${p##*/}" "$DIR/${p##*/}"; done
mv -f "$main" "$BIN"
rm -rf "$tmp"
trap - EXIT
log "built in $((SECONDS - start)) s: $BIN"
echo "$BIN"
