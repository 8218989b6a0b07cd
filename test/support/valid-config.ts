/** A small valid config touching every kind, for tests that break one thing at a time. */
import { EXAMPLE_CA } from './models';

/** An entry of one of the config's lists: its name and the references tests rewrite, and anything else. */
export interface DocEntry {
  name?: string;
  fleet?: string;
  quota?: string;
  cluster?: string;
  provider?: string;
  [field: string]: unknown;
}

/** A config document as plain data, for tests to break. */
export interface Doc {
  fleets: DocEntry[];
  quotas: DocEntry[];
  clusters: DocEntry[];
  nodePools: DocEntry[];
  nodeProviders: DocEntry[];
  autoNodes: DocEntry[];
  [section: string]: unknown;
}

/** A valid config touching every kind; each case changes one place. */
export function validConfig(): Doc {
  return {
    fleets: [
      {
        name: 'fra1',
        hosts: [0, 1, 2, 3].map((i) => ({ name: `bm-${i}`, labels: { rack: `r${i % 2}` }, capacity: { cpu: 64, memory: '256Gi', disk: '4Ti' } })),
        reservedPerHost: { cpu: 2, memory: '8Gi' },
      },
    ],
    quotas: [
      { name: 'team-a', fleet: 'fra1', organization: 'acme', limits: { cpu: 64, memory: '256Gi', disk: '2Ti' }, maxVirtualMachines: 40, liveMigrations: 1 },
    ],
    clusters: [{ name: 'prod', endpoint: 'https://10.0.0.10:6443', caCertificate: EXAMPLE_CA }],
    nodePools: [
      {
        name: 'workers',
        quota: 'team-a',
        cluster: 'prod',
        shape: { cpu: 4, memory: '16Gi', disk: '50Gi' },
        count: 2,
        labels: { tier: 'web' },
        taints: [{ key: 'dedicated', value: 'web', effect: 'NoSchedule' }],
      },
    ],
    nodeProviders: [
      { name: 'virt', kind: 'kubevirt', fleet: 'fra1', nodeTypes: [{ name: 'small', resources: { cpu: 2, memory: '4Gi' }, properties: { tier: 'a' } }] },
    ],
    autoNodes: [
      {
        cluster: 'prod',
        provider: 'virt',
        quota: 'team-a',
        static: [{ name: 'base', quantity: 1, nodeTypeSelector: [{ property: 'tier', value: 'a' }], nodeLabels: { role: 'base' } }],
        dynamic: [{ name: 'burst', limits: { nodes: '2' } }],
      },
    ],
  };
}
