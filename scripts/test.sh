#!/usr/bin/env bash
# `npm test`: everything, on a fresh machine too. Type-checks and builds, checks the API docs (TypeDoc, zero
# warnings), lints (zero warnings), brings up the real toolchain (OpenTofu, providers, etcd, kube-apiserver, cloud-init; cached after the
# first run), runs the unit, property and synth tests, then the e2e tests, two files at a time, each against its own real kube-apiserver.
# Ends with one line `tests: N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."
export CHECKPOINT_DISABLE=1
e2e_workers=$(bash scripts/e2e-workers.sh) || { echo "tests: 0 passed, 1 failed (METALSLICE_E2E_WORKERS)"; exit 1; }

# Everything below runs on Node 22 or newer: the machine's node if it is, else the pinned Node 22 LTS that
# scripts/node.sh fetches once into the toolchain cache (`npm run setup` fetches it too).
node_bin=$(bash scripts/node.sh) || { echo "tests: 0 passed, 1 failed (Node 22: scripts/node.sh)"; exit 1; }
[[ -z "$node_bin" ]] || export PATH="$node_bin:$PATH"
echo "tests run on Node $(node --version)"

results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

npm run --silent build || { echo "tests: 0 passed, 1 failed (type check and build, for cdktf and for cdktn)"; exit 1; }
# The API reference builds with zero warnings: every exported class, interface, function and prop has TSDoc.
npx typedoc --emit none || { echo "tests: 0 passed, 1 failed (API docs: see the TypeDoc warnings above)"; exit 1; }
# Lint (typescript-eslint, type-checked rules) and format (Prettier) with zero warnings: `npm run format` fixes the format.
npm run --silent lint || { echo "tests: 0 passed, 1 failed (lint: see the findings above; npm run format fixes formatting)"; exit 1; }

env_file=$(bash scripts/toolchain.sh | tail -n 1) || { echo "tests: 0 passed, 1 failed (toolchain)"; exit 1; }
# shellcheck source=/dev/null
source "$env_file"

status=0
# The unit, property and synth files on every core: jest's default leaves one core to itself, and on 2 cores that
# ran them one at a time (331 s against 205 s on both).
npx jest --selectProjects unit --maxWorkers=100% --json --outputFile="$results/unit.json" "$@" || status=1
# metalslice on PATH for the tofu and cdktf the e2e tests run, as `npx cdktf deploy` has it in a project that
# depends on metalslice: a node's drain (before its VM or HostClaim is deleted) runs `metalslice drain-node`.
# Two e2e files at a time: a file's control plane waits on timers and polls more than it computes (about 60% of
# the two cores idle when they ran one at a time), and each file brings its own API server on its own ports and
# its own temp dir. METALSLICE_E2E_WORKERS=1 runs them one after another.
PATH="$PWD/bin:$PATH" npx jest --selectProjects e2e --maxWorkers="$e2e_workers" --json --outputFile="$results/e2e.json" "$@" || status=1

node -e '
  const fs = require("fs");
  let passed = 0, failed = 0;
  for (const f of process.argv.slice(1)) {
    if (!fs.existsSync(f)) { failed += 1; continue; }
    const r = JSON.parse(fs.readFileSync(f, "utf8"));
    passed += r.numPassedTests; failed += r.numFailedTests + r.numRuntimeErrorTestSuites;
  }
  console.log(`tests: ${passed} passed, ${failed} failed`);
' "$results/unit.json" "$results/e2e.json"
exit $status
