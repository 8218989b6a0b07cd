#!/usr/bin/env bash
# `npm run bench:deploy`: the deploy benchmark (bench/deploy.ts) with the toolchain on PATH (built or found
# cached by scripts/toolchain.sh). Arguments go to the benchmark (--sizes, --layouts, --json).
set -euo pipefail
cd "$(dirname "$0")/.."
export CHECKPOINT_DISABLE=1
env_file=$(bash scripts/toolchain.sh | tail -n 1)
# shellcheck source=/dev/null
source "$env_file"
# metalslice on PATH, as `npx cdktf deploy` has it: removing a node runs its drain (`metalslice drain-node`).
export PATH="$PWD/bin:$PATH"
exec node node_modules/tsx/dist/cli.mjs bench/deploy.ts "$@"
