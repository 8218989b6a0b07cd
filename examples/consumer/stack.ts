/**
 * A consumer's stack: acme's team-a carves two node pools for its cluster team-a-prod out of its quota.
 * The fleet and quota are the provider's; they are imported so the plan places the VMs on real hosts.
 */
import { TerraformStack } from 'cdktf';
import { KubernetesProvider } from '../../constructs/providers/kubernetes/provider';
import { RandomProvider } from '../../constructs/providers/random/provider';
import { Construct } from 'constructs';
import { AutoNodes, CapacityPlan, ElasticFleet, ElasticNodePool, ElasticQuota, NodeProvider, TenantCluster, acceptNewerProviders } from '../../constructs';
import { exampleCaCertificate, exampleHosts, settings } from '../settings';

export class ConsumerStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new KubernetesProvider(this, 'kubernetes', { configPath: settings.providerKubeconfig });
    new RandomProvider(this, 'random');
    new CapacityPlan(this, 'plan');
    acceptNewerProviders(this);

    const fleet = ElasticFleet.fromInventory(this, 'fra1', { hosts: exampleHosts(), reservedPerHost: { cpu: 2, memory: '8Gi', disk: '100Gi' } });
    const quota = ElasticQuota.fromQuotaAttributes(this, 'team-a', {
      fleet,
      organization: 'acme',
      limits: { cpu: 256, memory: '1Ti', disk: '8Ti' },
      maxVirtualMachines: 40,
    });
    const cluster = new TenantCluster(this, 'team-a-prod', {
      endpoint: settings.tenantEndpoint,
      caCertificate: exampleCaCertificate(),
      kubernetesVersion: '1.33',
      kubeconfigPath: settings.tenantKubeconfig,
    });

    new ElasticNodePool(this, 'team-a-workers', {
      quota,
      cluster,
      shape: { cpu: 8, memory: '32Gi', disk: '100Gi' },
      count: settings.workers,
      bootstrapTokenTtl: settings.workerTokenTtl,
      drainTimeout: settings.workerDrainTimeout,
    });
    new ElasticNodePool(this, 'team-a-highmem', {
      quota,
      cluster,
      shape: { cpu: 16, memory: '128Gi', disk: '200Gi' },
      count: 2,
      placement: 'planned',
      taints: [{ key: 'metalslice.io/highmem', effect: 'NoSchedule' }],
    });

    // vCluster-style auto nodes: the plan picks the cheapest node type that matches each pool.
    const virt = new NodeProvider(this, 'virt', {
      kind: 'kubevirt',
      fleet,
      properties: { network: 'standard' },
      nodeTypes: [
        { name: 'small', resources: { cpu: 2, memory: '4Gi', disk: '40Gi' }, properties: { tier: 'a,b' }, maxCapacity: 20 },
        { name: 'medium', resources: { cpu: 4, memory: '16Gi', disk: '80Gi' }, properties: { tier: 'a' } },
        { name: 'large', resources: { cpu: 8, memory: '32Gi', disk: '100Gi' }, properties: { tier: '*' }, zone: 'fra1-a' },
        { name: 'gpu', resources: { cpu: 16, memory: '64Gi', 'nvidia.com/gpu': 1 }, properties: { tier: 'a' } },
      ],
    });
    const auto = new AutoNodes(this, 'team-a-prod-virt', { cluster, provider: virt, quota });
    auto.addStaticPool({ name: 'base', quantity: settings.baseNodes, requirements: [{ property: 'tier', value: 'a' }] });
    auto.addDynamicPool({
      name: 'burst',
      requirements: [{ property: 'tier', operator: 'In', values: ['a', 'b'] }],
      limits: { cpu: 64, memory: '256Gi', nodes: 8 },
      disruption: { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '5m', budgets: [{ nodes: '20%' }] },
      expireAfter: '720h',
      // The plan shows which nodes these pods would make Karpenter create, at least cost.
      preview: {
        pods: [
          { resources: { cpu: 1, memory: '2Gi' }, count: 40 },
          { resources: { cpu: 6, memory: '24Gi' }, count: 3 },
        ],
      },
    });
    auto.addDynamicPool({ name: 'scale', autoscaler: 'cluster-api', requirements: [{ property: 'tier', value: 'a' }], limits: { nodes: 4 }, minNodes: 0 });
  }
}
