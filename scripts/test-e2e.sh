#!/usr/bin/env bash
# End-to-end tests against real OpenTofu, providers, etcd and kube-apiserver: builds (or finds cached) the
# toolchain, puts it on PATH, then runs jest's e2e project, two files at a time (METALSLICE_E2E_WORKERS=1: one). Extra arguments go to jest
# (e.g. scripts/test-e2e.sh -t 'ResourceQuota').
set -euo pipefail
cd "$(dirname "$0")/.."
export CHECKPOINT_DISABLE=1
workers=$(bash scripts/e2e-workers.sh)
# Node 22 from the toolchain cache when the machine's node is older (scripts/node.sh).
node_bin=$(bash scripts/node.sh)
[[ -z "$node_bin" ]] || export PATH="$node_bin:$PATH"
env_file=$(bash scripts/toolchain.sh | tail -n 1)
# shellcheck source=/dev/null
source "$env_file"
# metalslice on PATH for every tofu and cdktf the tests run, as `npx cdktf deploy` has it in a project that
# depends on metalslice: a node's drain (before its VM or HostClaim is deleted) runs `metalslice drain-node`.
export PATH="$PWD/bin:$PATH"
exec npx jest --selectProjects e2e --maxWorkers="$workers" "$@"
