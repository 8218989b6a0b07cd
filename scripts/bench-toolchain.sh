#!/usr/bin/env bash
# `npm run bench:deploy` and `npm run bench:node-template`: the benchmark file given first (bench/deploy.ts,
# bench/node-template.ts) with the toolchain on PATH (built or found cached by scripts/toolchain.sh). The other
# arguments go to the benchmark (--sizes, --layouts, --runs, --json).
set -euo pipefail
cd "$(dirname "$0")/.."
export CHECKPOINT_DISABLE=1
bench="${1:?usage: scripts/bench-toolchain.sh bench/FILE.ts [benchmark arguments]}"
shift
env_file=$(bash scripts/toolchain.sh | tail -n 1)
# shellcheck source=/dev/null
source "$env_file"
# metalslice on PATH, as `npx cdktf deploy` has it: removing a node runs its drain (`metalslice drain-node`).
export PATH="$PWD/bin:$PATH"
exec node node_modules/tsx/dist/cli.mjs "$bench" "$@"
