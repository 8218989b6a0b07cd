#!/usr/bin/env bash
# The main job, offline: plan the example config, then synth the example app (which runs the capacity
# plan again at synth time) and show the plan report written beside cdk.tf.json.
set -euo pipefail
cd "$(dirname "$0")/.."
export CHECKPOINT_DISABLE=1
# Node 22 or newer, as npm test runs: the toolchain's pinned Node when the machine's is older (scripts/node.sh).
node_bin=$(bash scripts/node.sh)
[ -z "$node_bin" ] || export PATH="$node_bin:$PATH"
[ -f dist/constructs/cli/main.js ] || npx tsc -p tsconfig.json
echo "== metalslice plan examples/metalslice.yaml"
node bin/metalslice plan examples/metalslice.yaml
echo "== cdktf synth (examples/app.ts)"
npx cdktf synth --output cdktf.out
for stack in provider consumer; do
  echo "== cdktf.out/stacks/$stack: $(ls cdktf.out/stacks/$stack | tr '\n' ' ')"
done
cat cdktf.out/stacks/consumer/metalslice-plan.md
