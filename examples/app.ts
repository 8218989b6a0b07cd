/**
 * The example app: the provider's stack and a consumer's stack. `npx cdktf synth` runs it offline. Both keep
 * their state on the provider cluster (see exampleStateBackend), so every workstation deploys the same state.
 */
import { App } from 'cdktf';
import { synthOrExit } from '../constructs/plumbing/synth';
import { ConsumerStack } from './consumer/stack';
import { ProviderStack } from './provider/stack';
import { exampleStateBackend, settings } from './settings';

const app = new App();
new ProviderStack(app, 'provider');
new ConsumerStack(app, 'consumer');
exampleStateBackend(settings.providerKubeconfig)?.addToEveryStack(app);
synthOrExit(app);
