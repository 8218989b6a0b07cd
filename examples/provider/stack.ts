/**
 * The provider team's stack: the fra1 fleet becomes KubeVirt capacity, sliced into three quotas for two
 * organisations (acme: team-a, team-b; globex: research).
 */
import { TerraformStack } from 'cdktf';
import { KubernetesProvider } from '../../constructs/providers/kubernetes/provider';
import { Construct } from 'constructs';
import { CapacityPlan, ElasticFleet, ElasticQuota, acceptNewerProviders } from '../../constructs';
import { exampleHosts, settings } from '../settings';

export class ProviderStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new KubernetesProvider(this, 'kubernetes', { configPath: settings.providerKubeconfig });
    new CapacityPlan(this, 'plan');
    acceptNewerProviders(this, ['kubernetes']);

    const fleet = new ElasticFleet(this, 'fra1', {
      hosts: exampleHosts(),
      reservedPerHost: { cpu: 2, memory: '8Gi', disk: '100Gi' },
    });
    new ElasticQuota(this, 'team-a', {
      fleet,
      organization: 'acme',
      limits: { cpu: 256, memory: '1Ti', disk: '8Ti' },
      maxVirtualMachines: 40,
      consumers: ['tenant-acme', 'group:acme'],
    });
    new ElasticQuota(this, 'team-b', { fleet, organization: 'acme', limits: { cpu: 128, memory: '512Gi', disk: '4Ti' }, maxVirtualMachines: 2 });
    new ElasticQuota(this, 'research', { fleet, organization: 'globex', limits: { cpu: 384, memory: '2Ti', disk: '16Ti' } });
  }
}
