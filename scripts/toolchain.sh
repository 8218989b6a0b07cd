#!/usr/bin/env bash
# Builds and caches the real e2e toolchain at pinned versions, from source through the Go module proxy:
#   (first, and not through Go: Node 22 LTS when the machine's node is older, by scripts/node.sh, which
#   scripts/test.sh and scripts/test-e2e.sh put first on PATH; env.sh does not name it)
#   OpenTofu, the hashicorp/kubernetes, hashicorp/random and gavinbunney/kubectl providers, etcd, KWOK, and from one module graph
#   in one `go build`: kube-apiserver, kube-controller-manager, kube-scheduler, kubeadm, kubelet and kubectl;
# installs cloud-init, openssl and chromium (for the plan report screenshot) from Debian if missing; lays the providers out as a filesystem mirror
# with a CLI config (tofurc) so `tofu init` needs no network; writes env.sh and prints its path last.
#
# Usage: scripts/toolchain.sh [--print-env]
#   --print-env  print only the path of env.sh if the toolchain is complete (exit 1 if not), build nothing
#
# Cache: ${XDG_CACHE_HOME:-$HOME/.cache}/metalslice/toolchain/ (override with METALSLICE_TOOLCHAIN_CACHE),
# one directory per tool and version, so a warm run only checks stamps.
# Timings (2 cores, empty module and build caches, machine shared with other jobs): cold 22 min wall
# (etcd 1.6, random 0.6, kubernetes provider 2.5, OpenTofu 7.8, the Kubernetes binaries 9.8 min, of which
# kubectl 0.4: with an empty build cache the five others took 9.3 min, all six 25 s more; kubectl alone
# would take 2.9); warm 0.01 s; a changed binary set relinks in under a minute. Disk: ~440 MB here, plus
# ~3 GB Go module cache and ~4.5 GB Go build cache.
#
# Provider versions: the Go module proxy reachable here serves only the commits listed below; the
# v2.38.0 / v3.7.2 tags that @cdktf/provider-kubernetes 12.1.1 / @cdktf/provider-random 12.0.1 were
# generated for are not served, so we build the newest served commits and install them under the version
# their source's version/VERSION file names (checked at build time). Stacks that pin `~> 2.0` for the
# kubernetes provider need their required_providers constraint widened (e.g. ">= 2.38.0").
set -euo pipefail

TOFU_MODULE=github.com/opentofu/opentofu
TOFU_VERSION=v1.12.6
KUBE_MODULE=k8s.io/kubernetes
KUBE_VERSION=v1.34.4
# KWOK fakes the kubelets of the Nodes `metalslice verify` mirrors from the inventory. v0.7.0 is the newest
# release built against Kubernetes 1.33 (v0.8.0 needs 1.36). It does not compile against the v0.34 staging
# modules k8s.io/kubernetes pins (metav1.InitialEventsListBlueprintAnnotationKey is gone), so it is built in
# its own module graph, as its go.mod says; it only talks to the API server over HTTP.
KWOK_MODULE=sigs.k8s.io/kwok
KWOK_VERSION=v0.7.0
ETCD_MODULE=go.etcd.io/etcd/server/v3
ETCD_VERSION=v3.6.5
# hashicorp/kubernetes: main after 3.2.1 (commit 3a33fb6cc605, 2026-08-21); the module's go.mod path has no
# /v3 suffix, so its tags are not module versions and the commit is pinned as a pseudo-version.
K8S_PROVIDER_MODULE=github.com/hashicorp/terraform-provider-kubernetes
K8S_PROVIDER_REF=v1.13.4-0.20260821094251-3a33fb6cc605
K8S_PROVIDER_VERSION=3.2.1
# hashicorp/random: main after 3.9.0 (commit e1092b0cfc07, 2026-08-24); its go.mod still says
# github.com/terraform-providers/terraform-provider-random, so it is built in a copy of its own source tree.
RANDOM_PROVIDER_MODULE=github.com/hashicorp/terraform-provider-random
RANDOM_PROVIDER_REF=v1.3.2-0.20260824155315-e1092b0cfc07
RANDOM_PROVIDER_VERSION=3.9.0
# gavinbunney/kubectl: the provider of kubectl_manifest, which the constructs apply VirtualMachines with
# (constructs/plumbing/kubectl.ts says why); its v1.19.0 tag is a module version.
KUBECTL_PROVIDER_MODULE=github.com/gavinbunney/terraform-provider-kubectl
KUBECTL_PROVIDER_VERSION=1.19.0

CACHE="${METALSLICE_TOOLCHAIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/metalslice/toolchain}"
SCRIPTS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ENV_FILE="$CACHE/env.sh"
MIRROR="$CACHE/providers-mirror"
TOFURC="$CACHE/tofurc"

TOFU_DIR="$CACHE/tofu/$TOFU_VERSION"
# The directory is named by the binaries built into it, so a changed set builds afresh beside the old one.
KUBE_DIR="$CACHE/kubernetes/$KUBE_VERSION-scheduler-kubeadm-kubelet-kubectl"
KUBE_BINARIES=(kube-apiserver kube-controller-manager kube-scheduler kubeadm kubelet kubectl)
KWOK_DIR="$CACHE/kwok/$KWOK_VERSION"
ETCD_DIR="$CACHE/etcd/$ETCD_VERSION"
K8S_PROVIDER_DIR="$CACHE/provider-kubernetes/$K8S_PROVIDER_VERSION-$K8S_PROVIDER_REF"
RANDOM_PROVIDER_DIR="$CACHE/provider-random/$RANDOM_PROVIDER_VERSION-$RANDOM_PROVIDER_REF"
KUBECTL_PROVIDER_DIR="$CACHE/provider-kubectl/$KUBECTL_PROVIDER_VERSION"

# Everything that must exist for the toolchain to be complete; a change here rewrites env.sh and tofurc.
STAMP_KEY="tofu=$TOFU_VERSION kube=$KUBE_VERSION kwok=$KWOK_VERSION etcd=$ETCD_VERSION kubernetes=$K8S_PROVIDER_VERSION@$K8S_PROVIDER_REF random=$RANDOM_PROVIDER_VERSION@$RANDOM_PROVIDER_REF kubectl=$KUBECTL_PROVIDER_VERSION"
# Bump when the layout or the contents of env.sh/tofurc change, so a warm cache rewrites them.
STAMP_KEY="layout=5 $STAMP_KEY"

log() { printf 'toolchain: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# The screenshot's fonts: DejaVu for text and tables, Noto Color Emoji for the report's marks (no glyph boxes).
fonts_present() {
  command -v fc-list >/dev/null && [[ -n "$(fc-list ':family=DejaVu Sans' family)" && -n "$(fc-list ':family=Noto Color Emoji' family)" ]]
}

complete() {
  local b
  for b in "${KUBE_BINARIES[@]}"; do [[ -x "$KUBE_DIR/bin/$b" ]] || return 1; done
  [[ -x "$TOFU_DIR/bin/tofu" && -x "$ETCD_DIR/bin/etcd" && -x "$KWOK_DIR/bin/kwok" \
    && -f "$K8S_PROVIDER_DIR/.done" && -f "$RANDOM_PROVIDER_DIR/.done" && -f "$KUBECTL_PROVIDER_DIR/.done" && -f "$CACHE/.complete" \
    && "$(cat "$CACHE/.complete")" == "$STAMP_KEY" && -f "$ENV_FILE" ]] \
    && command -v openssl >/dev/null && command -v cloud-init >/dev/null && command -v chromium >/dev/null && fonts_present \
    && bash "$SCRIPTS/kubevirt-oracle.sh" --print-path >/dev/null 2>&1 \
    && bash "$SCRIPTS/vcluster-oracle.sh" --print-path >/dev/null 2>&1
}

if [[ "${1:-}" == "--print-env" ]]; then
  complete || die "toolchain is not built; run scripts/toolchain.sh"
  echo "$ENV_FILE"
  exit 0
fi
[[ $# -eq 0 ]] || die "usage: scripts/toolchain.sh [--print-env]"

# The Node the tests run on (seconds cold, nothing warm); it prints its directory, which is not needed here.
bash "$SCRIPTS/node.sh" >/dev/null || die "could not get Node 22 (scripts/node.sh)"

# Warm path: nothing to build, nothing to print but the env file.
if complete; then
  echo "$ENV_FILE"
  exit 0
fi

mkdir -p "$CACHE"
# Serialize concurrent runs (several shells or test runners may call this at once).
exec 9>"$CACHE/.lock"
flock 9
if complete; then
  echo "$ENV_FILE"
  exit 0
fi

command -v go >/dev/null || PATH="/usr/local/go/bin:$PATH"
command -v go >/dev/null || die "go not found (expected /usr/local/go/bin/go)"
command -v node >/dev/null || die "node not found"

# Go builds: reproducible paths, static where possible, the local toolchain only, 2 parallel jobs.
export GOFLAGS="-trimpath -buildvcs=false"
export GOTOOLCHAIN=local
export CGO_ENABLED=0

# --- Debian packages ---------------------------------------------------------------------------------
apt_install() {
  local missing=()
  for pair in "$@"; do
    command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  log "installing Debian packages: ${missing[*]}"
  command -v apt-get >/dev/null || die "apt-get not found; install ${missing[*]} by hand"
  local sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  $sudo apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
# chromium: the plan report's screenshot test (test/e2e/report-screenshot.test.ts) renders it headless.
apt_install openssl:openssl cloud-init:cloud-init chromium:chromium
fonts_present || apt_install fonts-dejavu-core:fonts-dejavu-core fonts-noto-color-emoji:fonts-noto-color-emoji

# --- Go helpers ----------------------------------------------------------------------------------------
# Prints the directory of a module version in the module cache, downloading it if needed.
mod_dir() {
  local dir
  dir=$(go mod download -json "$1@$2" 2>/dev/null | node -e '
    let s = ""; process.stdin.on("data", d => s += d).on("end", () => {
      const j = JSON.parse(s); if (j.Error) { console.error(j.Error); process.exit(1); } console.log(j.Dir); });')
  [[ -n "$dir" && -d "$dir" ]] || die "could not download $1@$2"
  echo "$dir"
}

# Replace directives of a go.mod, one "old[@v]=new[@v]" per line, as `go mod edit -replace` takes them.
# Directory replacements (k8s.io/api => ./staging/src/k8s.io/api, go.etcd.io/etcd/api/v3 => ../api) point
# into the upstream repository, outside the module zip: a module required at a real version keeps it (the
# published versions are released together); one required as v0.0.0 is mapped to STAGING_VERSION (2nd arg).
replace_args() {
  local gomod=$1 staging=${2:-}
  go mod edit -json "$gomod" | STAGING="$staging" node -e '
    let s = ""; process.stdin.on("data", d => s += d).on("end", () => {
      const j = JSON.parse(s); const staging = process.env.STAGING || "";
      const req = new Map((j.Require || []).map(r => [r.Path, r.Version]));
      for (const r of j.Replace || []) {
        const oldSpec = r.Old.Path + (r.Old.Version ? "@" + r.Old.Version : "");
        if (r.New.Version) { console.log(`${oldSpec}=${r.New.Path}@${r.New.Version}`); continue; }
        const v = req.get(r.Old.Path);
        if (v === undefined || v !== "v0.0.0") continue;
        if (!staging) { console.error(`cannot map directory replacement ${oldSpec} => ${r.New.Path}`); process.exit(1); }
        console.log(`${oldSpec}=${r.Old.Path}@${staging}`);
      }
    });'
}

# build_from_tools_module NAME MODULE VERSION STAGING_VERSION LDFLAGS OUTDIR PACKAGE...
# Builds every PACKAGE (main packages of MODULE@VERSION, or of the modules in EXTRA_REQUIRES, "path@version"
# words) into OUTDIR with ONE `go build` through a generated module (kept in the cache, never committed) that
# requires them all and repeats MODULE's replace directives: one module graph, each shared package compiled
# once. Binaries are named by go build (last path element, major-version suffixes skipped).
build_from_tools_module() {
  local name=$1 module=$2 version=$3 staging=$4 ldflags=$5 outdir=$6
  shift 6
  local work="$CACHE/build/$name-$version" src gomod_args=() pkg req
  local t0=$SECONDS
  log "building $name $version from $module${EXTRA_REQUIRES:+ with $EXTRA_REQUIRES} (this takes a while on a cold cache)"
  src=$(mod_dir "$module" "$version")
  rm -rf "$work" && mkdir -p "$work"
  local gover
  gover=$(go mod edit -json "$src/go.mod" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).Go||"1.22"))')
  {
    printf 'module metalslice.local/toolchain/%s\n\ngo %s\n\nrequire %s %s\n' "$name" "$gover" "$module" "$version"
    for req in ${EXTRA_REQUIRES:-}; do printf 'require %s %s\n' "${req%@*}" "${req#*@}"; done
  } >"$work/go.mod"
  {
    printf '//go:build tools\n\npackage tools\n\n'
    for pkg in "$@"; do printf 'import _ "%s"\n' "$pkg"; done
  } >"$work/tools.go"
  while IFS= read -r r; do [[ -n "$r" ]] && gomod_args+=("-replace=$r"); done < <(replace_args "$src/go.mod" "$staging")
  if [[ ${#gomod_args[@]} -gt 0 ]]; then
    (cd "$work" && go mod edit "${gomod_args[@]}")
  fi
  (cd "$work" && go mod tidy -e >"$work/tidy.log" 2>&1) || { tail -20 "$work/tidy.log" >&2; die "go mod tidy failed for $name"; }
  rm -rf "$outdir.tmp" && mkdir -p "$outdir.tmp"
  (cd "$work" && go build -p 2 -ldflags "-s -w $ldflags" -o "$outdir.tmp/" "$@" >>"$work/build.log" 2>&1) \
    || { tail -30 "$work/build.log" >&2; die "go build failed for $name"; }
  mkdir -p "$outdir"
  mv "$outdir.tmp"/* "$outdir/" && rmdir "$outdir.tmp"
  log "built $name in $((SECONDS - t0))s"
}

# build_from_source NAME MODULE REF OUT EXPECT_VERSION [LDFLAGS]
# Builds the main package of MODULE@REF in a writable copy of its own source tree (its go.mod, go.sum and
# replace directives apply as upstream intends); checks version/VERSION against EXPECT_VERSION.
build_from_source() {
  local name=$1 module=$2 ref=$3 out=$4 expect=$5 ldflags=${6:-}
  local work="$CACHE/build/$name-$ref" src
  local t0=$SECONDS
  log "building $name $expect ($module@$ref)"
  src=$(mod_dir "$module" "$ref")
  if [[ -f "$src/version/VERSION" ]]; then
    local got
    got=$(tr -d '[:space:]' <"$src/version/VERSION")
    [[ "$got" == "$expect" ]] || die "$module@$ref says version $got, expected $expect"
  fi
  rm -rf "$work" && mkdir -p "$work"
  cp -R "$src/." "$work/src" && chmod -R u+w "$work/src"
  mkdir -p "$(dirname "$out")"
  (cd "$work/src" && go build -p 2 -ldflags "-s -w $ldflags" -o "$out.tmp" . >"$work/build.log" 2>&1) \
    || { tail -30 "$work/build.log" >&2; die "go build failed for $name"; }
  mv "$out.tmp" "$out"
  rm -rf "$work/src"
  log "built $name in $((SECONDS - t0))s"
}

# kube-apiserver reports this version (its /version, and what clients see) instead of v0.0.0-master.
KUBE_LDFLAGS="-X k8s.io/component-base/version.gitVersion=$KUBE_VERSION -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$(cut -d. -f2 <<<"$KUBE_VERSION") -X k8s.io/component-base/version.gitTreeState=clean -X k8s.io/client-go/pkg/version.gitVersion=$KUBE_VERSION"

# --- Builds (sequential: they share 2 cores) ----------------------------------------------------------
[[ -x "$ETCD_DIR/bin/etcd" ]] \
  || build_from_tools_module etcd "$ETCD_MODULE" "$ETCD_VERSION" "" "" "$ETCD_DIR/bin" "$ETCD_MODULE"
# go build names the etcd server package's binary "server" (its path is go.etcd.io/etcd/server/v3).
[[ -x "$ETCD_DIR/bin/etcd" ]] || mv "$ETCD_DIR/bin/server" "$ETCD_DIR/bin/etcd"

if [[ ! -f "$RANDOM_PROVIDER_DIR/.done" ]]; then
  build_from_source provider-random "$RANDOM_PROVIDER_MODULE" "$RANDOM_PROVIDER_REF" \
    "$RANDOM_PROVIDER_DIR/terraform-provider-random" "$RANDOM_PROVIDER_VERSION"
  touch "$RANDOM_PROVIDER_DIR/.done"
fi

if [[ ! -f "$K8S_PROVIDER_DIR/.done" ]]; then
  build_from_source provider-kubernetes "$K8S_PROVIDER_MODULE" "$K8S_PROVIDER_REF" \
    "$K8S_PROVIDER_DIR/terraform-provider-kubernetes" "$K8S_PROVIDER_VERSION" "-X main.Version=$K8S_PROVIDER_VERSION"
  touch "$K8S_PROVIDER_DIR/.done"
fi

if [[ ! -f "$KUBECTL_PROVIDER_DIR/.done" ]]; then
  build_from_source provider-kubectl "$KUBECTL_PROVIDER_MODULE" "v$KUBECTL_PROVIDER_VERSION" \
    "$KUBECTL_PROVIDER_DIR/terraform-provider-kubectl" "$KUBECTL_PROVIDER_VERSION"
  touch "$KUBECTL_PROVIDER_DIR/.done"
fi

# OpenTofu calls itself "<version>-dev" unless told it is a release build.
[[ -x "$TOFU_DIR/bin/tofu" ]] \
  || build_from_tools_module tofu "$TOFU_MODULE" "$TOFU_VERSION" "" "-X $TOFU_MODULE/version.dev=no" \
    "$TOFU_DIR/bin" "$TOFU_MODULE/cmd/tofu"

# The Kubernetes binaries, all from one module graph in one `go build`:
#   kube-apiserver; kube-controller-manager (namespace deletion, quota usage, garbage collection, and the
#   bootstrap signer / token cleaner a joinable control plane needs); kube-scheduler (`metalslice verify`
#   replays the plan through it); kubeadm and kubelet (the join test); kubectl (bench:status's baseline).
# k8s.io/kubernetes replaces its staging modules with ./staging/src/k8s.io/<name>, which the module zip
# does not contain; map each to its published k8s.io/<name> v0.<minor>.<patch>.
kube_complete() { local b; for b in "${KUBE_BINARIES[@]}"; do [[ -x "$KUBE_DIR/bin/$b" ]] || return 1; done; }
if ! kube_complete; then
  build_from_tools_module kubernetes "$KUBE_MODULE" "$KUBE_VERSION" "v0.${KUBE_VERSION#v1.}" "$KUBE_LDFLAGS" "$KUBE_DIR/bin" \
    "$KUBE_MODULE/cmd/kube-apiserver" "$KUBE_MODULE/cmd/kube-controller-manager" "$KUBE_MODULE/cmd/kube-scheduler" \
    "$KUBE_MODULE/cmd/kubeadm" "$KUBE_MODULE/cmd/kubelet" "$KUBE_MODULE/cmd/kubectl"
fi
[[ -x "$KWOK_DIR/bin/kwok" ]] \
  || build_from_tools_module kwok "$KWOK_MODULE" "$KWOK_VERSION" "" "" "$KWOK_DIR/bin" "$KWOK_MODULE/cmd/kwok"

# The test oracle that runs KubeVirt's own launcher rendering (test/oracles/kubevirt-launcher): the e2e
# suite checks test/golden/kubevirt-launcher.json against it. Cached by the hash of its sources. The same
# `go build` writes KubeVirt's own virt-api and virt-controller and the kubevirt-install generator beside it:
# the e2e harness and `metalslice verify --kubevirt` run them (constructs/verify/kubevirt.ts).
bash "$SCRIPTS/kubevirt-oracle.sh" >/dev/null
# The oracle that runs vCluster's own config validation (test/oracles/vcluster-config): the e2e suite checks
# test/golden/vcluster-conformance.json against it.
bash "$SCRIPTS/vcluster-oracle.sh" >/dev/null

# --- Provider mirror and CLI config ------------------------------------------------------------------
# OpenTofu resolves bare "kubernetes"/"random" sources to registry.opentofu.org; cdktf and Terraform use
# registry.terraform.io: lay the same binaries out under both.
rm -rf "$MIRROR.tmp"
for host in registry.terraform.io registry.opentofu.org; do
  for spec in "hashicorp:kubernetes:$K8S_PROVIDER_VERSION:$K8S_PROVIDER_DIR" "hashicorp:random:$RANDOM_PROVIDER_VERSION:$RANDOM_PROVIDER_DIR" \
    "gavinbunney:kubectl:$KUBECTL_PROVIDER_VERSION:$KUBECTL_PROVIDER_DIR"; do
    IFS=: read -r pns pname pver pdir <<<"$spec"
    d="$MIRROR.tmp/$host/$pns/$pname/$pver/linux_amd64"
    mkdir -p "$d"
    ln "$pdir/terraform-provider-$pname" "$d/terraform-provider-${pname}_v$pver" 2>/dev/null \
      || cp "$pdir/terraform-provider-$pname" "$d/terraform-provider-${pname}_v$pver"
  done
done
rm -rf "$MIRROR" && mv "$MIRROR.tmp" "$MIRROR"

cat >"$TOFURC" <<EOF
# Generated by metalslice scripts/toolchain.sh: providers come only from the local mirror (no network).
provider_installation {
  filesystem_mirror {
    path    = "$MIRROR"
    include = ["*/*/*"]
  }
}
disable_checkpoint = true
EOF

cat >"$ENV_FILE" <<EOF
# Generated by metalslice scripts/toolchain.sh ($STAMP_KEY)
export METALSLICE_TOOLCHAIN="$CACHE"
export PATH="$TOFU_DIR/bin:$KUBE_DIR/bin:$ETCD_DIR/bin:$KWOK_DIR/bin:\$PATH"
export TF_CLI_CONFIG_FILE="$TOFURC"
export TERRAFORM_BINARY_NAME=tofu
export CHECKPOINT_DISABLE=1
export METALSLICE_KUBERNETES_PROVIDER_VERSION=$K8S_PROVIDER_VERSION
export METALSLICE_RANDOM_PROVIDER_VERSION=$RANDOM_PROVIDER_VERSION
export METALSLICE_KUBECTL_PROVIDER_VERSION=$KUBECTL_PROVIDER_VERSION
unset TF_PLUGIN_CACHE_DIR
EOF

# --- Smoke test: tofu init offline with every provider ------------------------------------------------
smoke=$(mktemp -d)
trap 'rm -rf "$smoke"' EXIT
cat >"$smoke/main.tf.json" <<EOF
{
  "terraform": {
    "required_providers": {
      "kubernetes": { "source": "kubernetes", "version": "$K8S_PROVIDER_VERSION" },
      "random": { "source": "hashicorp/random", "version": "$RANDOM_PROVIDER_VERSION" },
      "kubectl": { "source": "gavinbunney/kubectl", "version": "$KUBECTL_PROVIDER_VERSION" }
    }
  },
  "resource": { "random_id": { "smoke": { "byte_length": 4 } } }
}
EOF
(
  unset TF_PLUGIN_CACHE_DIR
  export TF_CLI_CONFIG_FILE="$TOFURC" CHECKPOINT_DISABLE=1
  cd "$smoke"
  "$TOFU_DIR/bin/tofu" init -input=false -no-color >"$smoke/init.log" 2>&1 \
    && "$TOFU_DIR/bin/tofu" providers -no-color >>"$smoke/init.log" 2>&1
) || { cat "$smoke/init.log" >&2; die "tofu init against the local mirror failed"; }

echo "$STAMP_KEY" >"$CACHE/.complete"
log "toolchain ready in $CACHE"
echo "$ENV_FILE"
