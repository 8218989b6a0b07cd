/**
 * A consumer's stack: acme's team-a carves two node pools for its cluster team-a-prod out of its quota.
 * The fleet and quota are the provider's; they are imported so the plan places the VMs on real hosts.
 */
import { TerraformStack } from 'cdktf';
import { KubernetesProvider } from '@cdktf/provider-kubernetes/lib/provider';
import { RandomProvider } from '@cdktf/provider-random/lib/provider';
import { Construct } from 'constructs';
import { CapacityPlan, ElasticFleet, ElasticNodePool, ElasticQuota, TenantCluster } from '../../constructs';
import { exampleCaCertificate, exampleHosts, settings } from '../settings';

export class ConsumerStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new KubernetesProvider(this, 'kubernetes', { configPath: settings.providerKubeconfig });
    new RandomProvider(this, 'random');
    new CapacityPlan(this, 'plan');

    const fleet = ElasticFleet.fromInventory(this, 'fra1', { hosts: exampleHosts(), reservedPerHost: { cpu: 2, memory: '8Gi', disk: '100Gi' } });
    const quota = ElasticQuota.fromQuotaAttributes(this, 'team-a', { fleet, organization: 'acme', limits: { cpu: 256, memory: '1Ti', disk: '8Ti' }, maxVirtualMachines: 40 });
    const cluster = new TenantCluster(this, 'team-a-prod', {
      endpoint: settings.tenantEndpoint,
      caCertificate: exampleCaCertificate(),
      kubernetesVersion: '1.33',
      kubeconfigPath: settings.tenantKubeconfig,
    });

    new ElasticNodePool(this, 'team-a-workers', { quota, cluster, shape: { cpu: 8, memory: '32Gi', disk: '100Gi' }, count: settings.workers });
    new ElasticNodePool(this, 'team-a-highmem', {
      quota,
      cluster,
      shape: { cpu: 16, memory: '128Gi', disk: '200Gi' },
      count: 2,
      placement: 'planned',
      taints: [{ key: 'metalslice.io/highmem', effect: 'NoSchedule' }],
    });
  }
}
