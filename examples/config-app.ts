/**
 * The same model from the YAML config: `METALSLICE_CONFIG=examples/metalslice.yaml` (the default). Both
 * kubernetes providers read their cluster from the environment (KUBE_CONFIG_PATH), since the config names
 * clusters, not credentials.
 *
 * `METALSLICE_LAYOUT` picks the stacks: `one-stack` (the default; stack `from-config`) or `stack-per-pool`
 * (stack `metalslice` with fleets, quotas and the rest, and `metalslice-pool-<name>` per elastic node pool,
 * for large fleets: a change to one pool is planned in that pool's stack alone).
 *
 * Every stack keeps its state in the provider cluster (`METALSLICE_STATE`, see exampleStateBackend), under
 * its own key: Secret `tfstate-default-<stack>` in `metalslice-state`.
 */
import * as path from 'path';
import { App, TerraformStack } from 'cdktf';
import { KubernetesProvider } from '../constructs/providers/kubernetes/provider';
import { RandomProvider } from '../constructs/providers/random/provider';
import { acceptNewerProviders, addConfig, addConfigStacks, CapacityPlan, loadConfigFile, MetalsliceError } from '../constructs';
import { synthOrExit } from '../constructs/plumbing/synth';
import { EXAMPLES_DIR, exampleStateBackend } from './settings';

const file = process.env.METALSLICE_CONFIG ?? path.join(EXAMPLES_DIR, 'metalslice.yaml');
const layout = process.env.METALSLICE_LAYOUT ?? 'one-stack';
if (layout !== 'one-stack' && layout !== 'stack-per-pool') {
  process.stderr.write(`metalslice: METALSLICE_LAYOUT must be one-stack or stack-per-pool (got "${layout}")\n`);
  process.exit(2);
}

function setUpStack(stack: TerraformStack): void {
  new KubernetesProvider(stack, 'kubernetes', {});
  new RandomProvider(stack, 'random');
  acceptNewerProviders(stack);
}

const stateBackend = exampleStateBackend();
const app = new App();
try {
  const config = loadConfigFile(file);
  if (layout === 'one-stack') {
    const stack = new TerraformStack(app, 'from-config');
    setUpStack(stack);
    stateBackend?.addTo(stack);
    new CapacityPlan(stack, 'plan');
    addConfig(stack, config);
  } else {
    addConfigStacks(app, config, { setUpStack, stateBackend });
  }
} catch (e) {
  if (!(e instanceof MetalsliceError)) throw e;
  process.stderr.write(`metalslice: ${file} is not valid, nothing was written:\n${e.message}\n`);
  process.exit(1);
}
synthOrExit(app);
