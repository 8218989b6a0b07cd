/**
 * The same model from the YAML config, as one stack: `METALSLICE_CONFIG=examples/metalslice.yaml` (the
 * default). Both kubernetes providers read their cluster from the environment (KUBE_CONFIG_PATH), since
 * the config names clusters, not credentials.
 */
import * as path from 'path';
import { App, TerraformStack } from 'cdktf';
import { KubernetesProvider } from '@cdktf/provider-kubernetes/lib/provider';
import { RandomProvider } from '@cdktf/provider-random/lib/provider';
import { acceptNewerProviders, addConfig, CapacityPlan, loadConfigFile, MetalsliceError } from '../constructs';
import { synthOrExit } from '../constructs/synth';
import { EXAMPLES_DIR } from './settings';

const file = process.env.METALSLICE_CONFIG ?? path.join(EXAMPLES_DIR, 'metalslice.yaml');
const app = new App();
const stack = new TerraformStack(app, 'from-config');
new KubernetesProvider(stack, 'kubernetes', {});
new RandomProvider(stack, 'random');
new CapacityPlan(stack, 'plan');
acceptNewerProviders(stack);
try {
  addConfig(stack, loadConfigFile(file));
} catch (e) {
  if (!(e instanceof MetalsliceError)) throw e;
  process.stderr.write(`metalslice: ${file} is not valid, nothing was written:\n${e.message}\n`);
  process.exit(1);
}
synthOrExit(app);
