#!/usr/bin/env bash
# `npm run bench:deploy`: the deploy benchmark (bench/deploy.ts) with the toolchain on PATH (built or found
# cached by scripts/toolchain.sh). Arguments go to the benchmark (--sizes, --layouts, --json).
set -euo pipefail
cd "$(dirname "$0")/.."
export CHECKPOINT_DISABLE=1
env_file=$(bash scripts/toolchain.sh | tail -n 1)
# shellcheck source=/dev/null
source "$env_file"
# The per-pool-kubectl layout measures gavinbunney/kubectl's kubectl_manifest: built once from its Go module.
if [[ "$*" == *per-pool-kubectl* ]]; then
  kubectl_dir="${XDG_CACHE_HOME:-$HOME/.cache}/metalslice/bench/kubectl-provider/v1.19.0"
  if [[ ! -x "$kubectl_dir/terraform-provider-kubectl" ]]; then
    mkdir -p "$kubectl_dir"
    GOBIN="$kubectl_dir" go install github.com/gavinbunney/terraform-provider-kubectl@v1.19.0
  fi
  export METALSLICE_BENCH_KUBECTL_PROVIDER="$kubectl_dir/terraform-provider-kubectl"
fi
exec node node_modules/tsx/dist/cli.mjs bench/deploy.ts "$@"
