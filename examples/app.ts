/** The example app: the provider's stack and a consumer's stack. `npx cdktf synth` runs it offline. */
import { App } from 'cdktf';
import { synthOrExit } from '../constructs/synth';
import { ConsumerStack } from './consumer/stack';
import { ProviderStack } from './provider/stack';

const app = new App();
new ProviderStack(app, 'provider');
new ConsumerStack(app, 'consumer');
synthOrExit(app);
