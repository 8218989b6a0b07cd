/**
 * Every node pool shape vCluster accepts plans as written: static pools on metal3 providers become the same
 * HostClaims a privateNodePools entry makes, static pools on terraform providers are planned claims (on the
 * fleet when the template is metalslice's kubevirt one), and one file may mix them all. The vcluster.yaml
 * texts are vCluster's documented shapes, re-typed.
 */
import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MetalsliceConfig, NodeProviderSpec } from '../../constructs/core/input/model';
import { planModel } from '../../constructs/core/plan';
import { templateGroupIssues } from '../../constructs/core/plan/type-selection';
import { importVclusterAutoNodes } from '../../constructs/core/input/vcluster';
import { synthConfigObjects } from '../support/stack-objects';
import { CORPUS_DIR } from '../support/vcluster-corpus';
import { validateAgainstCrd } from '../support/crd-schema';
import { cluster } from '../support/models';

const CHECKSUM = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
const IMAGE_PROPERTIES = {
  'metal3.vcluster.com/image-url': 'https://images.example.com/ubuntu-24.04-server.raw',
  'metal3.vcluster.com/image-checksum': CHECKSUM,
  'metal3.vcluster.com/image-checksum-type': 'sha256',
};

const metal3 = (properties?: Record<string, string>): NodeProviderSpec => ({
  name: 'metal3-provider',
  kind: 'metal3',
  hostNamespace: 'metal3-system',
  ...(properties ? { properties } : {}),
  hosts: ['gpu-a', 'gpu-b', 'gpu-c'].map((name) => ({
    name,
    labels: { role: 'gpu' },
    state: 'available',
    capacity: { cpu: 112, memory: '2Ti', 'nvidia.com/gpu': 8 },
  })),
  nodeTypes: [{ name: 'gpu-node', hostSelector: { matchLabels: { role: 'gpu' } } }],
});

const base = (providers: NodeProviderSpec[], extra: MetalsliceConfig = {}): MetalsliceConfig => ({
  fleets: [
    {
      name: 'fra1',
      reservedPerHost: { cpu: 2, memory: '8Gi' },
      hosts: ['bm-0', 'bm-1', 'bm-2', 'bm-3'].map((name) => ({ name, capacity: { cpu: 64, memory: '512Gi', disk: '4Ti' } })),
    },
  ],
  quotas: [{ name: 'team-a', fleet: 'fra1', organization: 'acme', limits: { cpu: 64, memory: '256Gi', disk: '2Ti' } }],
  clusters: [cluster('prod')],
  nodeProviders: providers,
  ...extra,
});

/** A vcluster.yaml read for the tenant cluster `prod`, as `vclusters: [{cluster: prod, file, quota: team-a}]` reads it. */
function withVcluster(config: MetalsliceConfig, text: string): MetalsliceConfig {
  const read = importVclusterAutoNodes(text, { cluster: 'prod', quota: 'team-a', providers: config.nodeProviders, pathPrefix: 'vcluster.yaml' });
  expect(read.issues).toEqual([]);
  return { ...config, autoNodes: read.autoNodes.map((e, k) => ({ ...e, source: read.sourcePaths[k] })), readWarnings: read.warnings };
}

const synthObjects = synthConfigObjects;

/** A vcluster.yaml of the conformance suite (re-typed from vCluster's docs and pages). */
const corpusText = (name: string) => fs.readFileSync(path.join(CORPUS_DIR, name), 'utf8');

// vCluster's documented bare-metal shape: a static pool of two GPU hosts on a metal3 provider.
const METAL3_DOCS = corpusText('086-docs-metal3-static-gpu.yaml');

describe('static pools on a metal3 provider', () => {
  it('plan the documented GPU pool as two exclusive HostClaims of the chosen type, with the image of the provider properties', () => {
    const plan = planModel(withVcluster(base([metal3(IMAGE_PROPERTIES)]), METAL3_DOCS));
    expect(plan.errors).toEqual([]);
    expect(plan.privatePools).toHaveLength(1);
    const [pool] = plan.privatePools;
    expect(pool.path).toBe('vcluster.yaml.privateNodes.autoNodes[0].static[0]');
    expect(pool.spec).toMatchObject({ name: 'gpu-nodes', cluster: 'prod', provider: 'metal3-provider', nodeType: 'gpu-node', count: 2 });
    expect(pool.spec.image).toEqual({ url: IMAGE_PROPERTIES['metal3.vcluster.com/image-url'], checksum: CHECKSUM, checksumType: 'sha256' });
    expect(pool.pool.nodes.map((n) => [n.name, n.host])).toEqual([
      ['prod-gpu-nodes-0', 'gpu-a'],
      ['prod-gpu-nodes-1', 'gpu-b'],
    ]);
    expect(plan.report.pools.find((p) => p.name === 'gpu-nodes')).toMatchObject({ kind: 'private', nodeType: 'metal3-provider.gpu-node' });
  });

  it('synthesize exactly the objects a privateNodePools entry makes for the same nodes', () => {
    const fromVcluster = synthObjects(withVcluster(base([metal3(IMAGE_PROPERTIES)]), METAL3_DOCS));
    const fromPrivate = synthObjects(
      base([metal3()], {
        privateNodePools: [
          {
            name: 'gpu-nodes',
            cluster: 'prod',
            provider: 'metal3-provider',
            nodeType: 'gpu-node',
            count: 2,
            image: { url: IMAGE_PROPERTIES['metal3.vcluster.com/image-url'], checksum: CHECKSUM, checksumType: 'sha256' },
          },
        ],
      }),
    );
    const metalObjects = (objects: typeof fromVcluster) =>
      objects
        .filter((o) => ['HostClaim', 'HostDeployPolicy', 'Namespace'].includes(o.kind))
        .sort((a, b) => `${a.kind}/${a.metadata.name}`.localeCompare(`${b.kind}/${b.metadata.name}`));
    const claims = fromVcluster.filter((o) => o.kind === 'HostClaim');
    expect(claims.map((c) => c.metadata.name)).toEqual(['prod-gpu-nodes-0', 'prod-gpu-nodes-1']);
    for (const claim of claims) expect(validateAgainstCrd(claim)).toEqual([]);
    // The same objects but for the claims' revision label: it hashes the labels the nodes join with, and a node of
    // the vcluster.yaml's pool joins with its provider's label-like properties too (image-checksum-type).
    const withoutRevision = (objects: typeof fromVcluster) =>
      metalObjects(objects).map((o) => {
        const { 'metalslice.io/revision': revision, ...labels } = (o.metadata as { labels?: Record<string, string> }).labels ?? {};
        if (o.kind === 'HostClaim') expect(revision).toMatch(/^[0-9a-f]{16}$/);
        return o.kind === 'HostClaim' ? { ...o, metadata: { ...o.metadata, labels } } : o;
      });
    expect(withoutRevision(fromVcluster)).toEqual(withoutRevision(fromPrivate));
    expect(claims[0].spec).toMatchObject({
      hostSelector: { inNamespace: 'metal3-system', matchLabels: { role: 'gpu' } },
      image: { url: IMAGE_PROPERTIES['metal3.vcluster.com/image-url'], checksum: CHECKSUM, checksumType: 'sha256' },
    });
    const policy = fromVcluster.find((o) => o.kind === 'HostDeployPolicy')!;
    expect(policy.spec).toEqual({ hostClaimNamespaces: { names: ['prod-metal3-provider'] } });
  });

  it('take the image from the OSImage that vcluster.com/os-image names, declared under osImages', () => {
    const provider = {
      ...metal3(),
      nodeTypes: [{ name: 'gpu-node', hostSelector: { matchLabels: { role: 'gpu' } }, properties: { 'vcluster.com/os-image': 'ubuntu-noble' } }],
    };
    const config = base([provider], {
      osImages: [
        {
          name: 'ubuntu-noble',
          properties: { 'metal3.vcluster.com/image-url': 'https://images.example.com/noble.img', 'metal3.vcluster.com/image-checksum': CHECKSUM },
        },
      ],
    });
    const plan = planModel(withVcluster(config, METAL3_DOCS));
    expect(plan.errors).toEqual([]);
    expect(plan.privatePools[0].spec.image).toEqual({ url: 'https://images.example.com/noble.img', checksum: CHECKSUM });
  });

  it('refuse a pool with no image, naming the pool and every place the image may be set', () => {
    const plan = planModel(withVcluster(base([metal3()]), METAL3_DOCS));
    expect(plan.errors).toEqual([
      {
        path: 'vcluster.yaml.privateNodes.autoNodes[0].static[0]',
        message:
          'static pool gpu-nodes on metal3 provider metal3-provider: no OS image for its hosts, and a HostClaim needs one: set metal3.vcluster.com/image-url and metal3.vcluster.com/image-checksum (or vcluster.com/os-image naming an osImages entry) in vcluster.yaml.privateNodes.autoNodes[0].properties, or nodeProviders[0].nodeTypes[0].properties, or nodeProviders[0].properties',
      },
    ]);
  });

  it('refuse an OSImage only vCluster Platform defines, naming the fields the plan needs', () => {
    const plan = planModel(withVcluster(base([metal3({ 'vcluster.com/os-image': 'rhel-9-gold' })]), METAL3_DOCS));
    expect(plan.errors).toHaveLength(1);
    expect(plan.errors[0].path).toBe('nodeProviders[0].properties["vcluster.com/os-image"]');
    expect(plan.errors[0].message).toMatch(
      /OSImage "rhel-9-gold" is not in this config \(it may be defined in vCluster Platform\), and the plan needs its metal3.vcluster.com\/image-url and metal3.vcluster.com\/image-checksum to write each HostClaim/,
    );
  });

  it('refuse a checksum that is no digest, at the property that holds it', () => {
    const plan = planModel(withVcluster(base([metal3({ ...IMAGE_PROPERTIES, 'metal3.vcluster.com/image-checksum': 'not-a-digest' })]), METAL3_DOCS));
    expect(plan.errors.map((e) => e.path)).toEqual(['nodeProviders[0].properties["metal3.vcluster.com/image-checksum"]']);
    expect(plan.errors[0].message).toMatch(/image.checksum must be the image's sha256 digest \(64 hex digits\)/);
  });

  it('refuse more hosts than the node type has free, as for a privateNodePools entry', () => {
    const text = METAL3_DOCS.replace('quantity: 2', 'quantity: 4');
    const plan = planModel(withVcluster(base([metal3(IMAGE_PROPERTIES)]), text));
    expect(plan.errors.map((e) => e.message).join('\n')).toMatch(/3 matching host\(s\) free/);
  });
});

const aws: NodeProviderSpec = { name: 'aws', kind: 'terraform', nodeTypes: [{ name: 't3.medium', resources: { cpu: 2, memory: '4Gi' }, cost: 42 }] };
const gcp: NodeProviderSpec = { name: 'gcp', kind: 'terraform', nodeTypes: [{ name: 't3.medium', resources: { cpu: 2, memory: '4Gi' }, cost: 38 }] };
const kubevirtTemplate: NodeProviderSpec = {
  name: 'metalslice-kubevirt',
  kind: 'terraform',
  nodeTemplate: { git: { repository: 'https://git.example.com/platform/metalslice.git', subPath: 'node-templates/kubevirt' } },
  properties: { 'metalslice.io/quota': 'team-a' },
  nodeTypes: [{ name: 'small', resources: { cpu: 2, memory: '4Gi' } }],
};

// vCluster's multi-cloud shape: one node on each cloud, by node type.
const MULTI_CLOUD = corpusText('087-docs-multicloud-terraform-static.yaml');

describe('static pools on a terraform provider', () => {
  it('plan the multi-cloud claims with their node type and cost, and say in one line each that their capacity is not proven', () => {
    const plan = planModel(withVcluster(base([aws, gcp]), MULTI_CLOUD));
    expect(plan.errors).toEqual([]);
    const pools = plan.report.pools.filter((p) => p.kind === 'static');
    expect(pools.map((p) => [p.name, p.nodeType, p.cost, p.nodes.map((n) => n.name)])).toEqual([
      ['aws-node', 'aws.t3.medium', 42, ['prod-aws-node-0']],
      ['gcp-node', 'gcp.t3.medium', 38, ['prod-gcp-node-0']],
    ]);
    expect(plan.warnings).toEqual([
      {
        path: 'vcluster.yaml.privateNodes.autoNodes[0].static[0]',
        message:
          "static pool aws-node: 1 x t3.medium (cost 42 each) made by provider aws's node template in vCluster Platform, outside metalslice's fleets: their capacity is not proven",
      },
      {
        path: 'vcluster.yaml.privateNodes.autoNodes[1].static[0]',
        message:
          "static pool gcp-node: 1 x t3.medium (cost 38 each) made by provider gcp's node template in vCluster Platform, outside metalslice's fleets: their capacity is not proven",
      },
    ]);
    // vCluster Platform makes them: metalslice renders no node for them, and charges no quota.
    expect(plan.vms).toEqual([]);
    expect(synthObjects(withVcluster(base([aws, gcp]), MULTI_CLOUD)).filter((o) => ['VirtualMachine', 'HostClaim'].includes(o.kind))).toEqual([]);
  });

  it("count the VMs of metalslice's kubevirt template on the quota's fleet exactly as a kubevirt provider's, and render none", () => {
    const pool = `
privateNodes:
  enabled: true
  autoNodes:
  - provider: PROVIDER
    static: [{name: tpl, quantity: 3}]
`;
    const kubevirt: NodeProviderSpec = { name: 'virt', kind: 'kubevirt', fleet: 'fra1', nodeTypes: kubevirtTemplate.nodeTypes };
    const viaTemplate = planModel(withVcluster(base([kubevirtTemplate]), pool.replace('PROVIDER', 'metalslice-kubevirt')));
    const viaKubevirt = planModel(withVcluster(base([kubevirt]), pool.replace('PROVIDER', 'virt')));
    expect(viaTemplate.errors).toEqual([]);
    expect(viaTemplate.vms).toHaveLength(3);
    expect(viaTemplate.vms.every((vm) => vm.madeByNodeTemplate === true)).toBe(true);
    // The same VMs (launcher pods, quota demand, hosts) as the constructs would plan on a kubevirt provider.
    const shape = (vms: typeof viaTemplate.vms) =>
      vms.map((vm) => ({ name: vm.name, quota: vm.quota, demand: vm.quotaDemand, host: vm.host, launcher: vm.launcher }));
    expect(shape(viaTemplate.vms)).toEqual(shape(viaKubevirt.vms));
    expect(viaTemplate.report.quotas).toEqual(viaKubevirt.report.quotas);
    expect(viaTemplate.warnings).toEqual([]);
    const objects = synthObjects(withVcluster(base([kubevirtTemplate]), pool.replace('PROVIDER', 'metalslice-kubevirt')));
    expect(objects.filter((o) => o.kind === 'VirtualMachine')).toEqual([]);
  });

  it('refuse a node template on a provider that is not terraform', () => {
    const kubevirt: NodeProviderSpec = {
      name: 'virt',
      kind: 'kubevirt',
      fleet: 'fra1',
      nodeTemplate: kubevirtTemplate.nodeTemplate,
      nodeTypes: kubevirtTemplate.nodeTypes,
    };
    expect(planModel(base([kubevirt])).errors).toEqual([
      { path: 'nodeProviders[0].nodeTemplate', message: 'provider virt is kubevirt: only terraform providers run a node template; remove nodeTemplate' },
    ]);
  });

  it("ask the claims of a template pool the plan confines to a host group for that group's label, by property and value", () => {
    const text = `privateNodes: {enabled: true, autoNodes: [{provider: metalslice-kubevirt, static: [{name: tpl, quantity: 2}]}]}`;
    const config = withVcluster(base([kubevirtTemplate]), text);
    const plan = planModel(config);
    expect(plan.errors).toEqual([]);
    // The plan's own choice here is the whole fleet (nothing to ask); were it a group, the claims must say so.
    const selection = { auto: { pools: plan.autoPools } as never, autoSpecs: config.autoNodes! };
    expect(templateGroupIssues(selection, plan.vms, new Map())).toEqual([]);
    const group = new Map([[plan.vms[0].poolPath, { hosts: ['bm-0', 'bm-1'], size: 2, perHost: 1, migrationTargets: 1, wholeDrain: false }]]);
    const path = 'vcluster.yaml.privateNodes.autoNodes[0].properties["metalslice.io/host-group"]';
    const fix =
      "pool tpl: its VMs are proven only confined to its host group (2 hosts), and vCluster Platform makes them from metalslice's kubevirt template, which confines a VM only as its claim says: set metalslice.io/host-group: \"group.metalslice.io/prod.auto.tpl\" in the entry's properties (the group's Node label, which metalslice writes on the group's hosts)";
    expect(templateGroupIssues(selection, plan.vms, group)).toEqual([{ path, message: fix }]);
    const saying = (value: string) =>
      withVcluster(
        base([kubevirtTemplate]),
        text.replace('provider: metalslice-kubevirt,', `provider: metalslice-kubevirt, properties: {metalslice.io/host-group: '${value}'},`),
      ).autoNodes!;
    expect(templateGroupIssues({ ...selection, autoSpecs: saying('group.metalslice.io/prod.auto.tpl') }, plan.vms, group)).toEqual([]);
    // The property's old value, the group's hosts, confines nothing now: refused, with the label to set instead.
    expect(templateGroupIssues({ ...selection, autoSpecs: saying('bm-1, bm-0') }, plan.vms, group)).toEqual([
      { path, message: `${fix}; "bm-1, bm-0" is a list of hosts, which the property no longer takes` },
    ]);
    // The elastic pool of the same name has its own label: not this pool's.
    expect(templateGroupIssues({ ...selection, autoSpecs: saying('group.metalslice.io/prod.tpl') }, plan.vms, group)).toEqual([
      { path, message: `${fix}, not "group.metalslice.io/prod.tpl"` },
    ]);
    // A pool the plan spreads over the whole fleet must not name a group: no Node carries its label.
    expect(templateGroupIssues({ ...selection, autoSpecs: saying('group.metalslice.io/prod.auto.tpl') }, plan.vms, new Map())).toEqual([
      {
        path,
        message:
          'pool tpl: the plan spreads its VMs over the whole fleet, and no Node carries "group.metalslice.io/prod.auto.tpl" (metalslice writes a group\'s label only while the plan confines a pool to it), so every VM the template makes with it would stay Pending: remove metalslice.io/host-group from the entry\'s properties',
      },
    ]);
    // Another pool's label is not this pool's group.
    expect(templateGroupIssues({ ...selection, autoSpecs: saying('group.metalslice.io/prod.other') }, plan.vms, group)).toEqual([
      { path, message: `${fix}, not "group.metalslice.io/prod.other"` },
    ]);
  });

  it("ask for the quota of metalslice's kubevirt template when nothing names one", () => {
    const { properties: _quota, ...unnamed } = kubevirtTemplate;
    const config = base([unnamed]);
    const read = importVclusterAutoNodes('privateNodes: {enabled: true, autoNodes: [{provider: metalslice-kubevirt, static: [{name: tpl, quantity: 1}]}]}', {
      cluster: 'prod',
      pathPrefix: 'vcluster.yaml',
    });
    const plan = planModel({ ...config, autoNodes: read.autoNodes.map((e, k) => ({ ...e, source: read.sourcePaths[k] })) });
    expect(plan.errors[0]).toEqual({
      path: 'vcluster.yaml.privateNodes.autoNodes[0]',
      message:
        "provider metalslice-kubevirt runs metalslice's kubevirt node template, whose VMs are carved from a quota, and the plan needs to know which: set quota (vclusters[].quota), or metalslice.io/quota in the entry's or the provider's properties",
    });
  });
});

describe("static pools on a terraform provider running metalslice's metal3 template", () => {
  const metal3Template = (properties: Record<string, string>): NodeProviderSpec => ({
    name: 'metalslice-metal3',
    kind: 'terraform',
    nodeTemplate: { git: { repository: 'https://git.example.com/platform/metalslice.git', branch: 'main', subPath: 'node-templates/metal3' } },
    properties,
    hosts: ['gpu-a', 'gpu-b'].map((name) => ({
      name,
      labels: { class: 'gpu' },
      state: 'available',
      capacity: { cpu: 96, memory: '1Ti', 'nvidia.com/gpu': 8 },
    })),
    nodeTypes: [{ name: 'gpu-node', properties: { 'metalslice.io/host-selector': 'class=gpu' } }],
  });
  const pool = (quantity: number) =>
    `privateNodes: {enabled: true, autoNodes: [{provider: metalslice-metal3, static: [{name: bare, quantity: ${quantity}, nodeTypeSelector: [{property: vcluster.com/node-type, value: gpu-node}]}]}]}`;
  const withImage = { 'metalslice.io/image-url': 'https://images.example.com/ubuntu-24.04.raw', 'metalslice.io/image-checksum': CHECKSUM };

  it('claims the listed BareMetalHosts its host selector picks, as a metal3 provider would, and renders nothing', () => {
    const config = withVcluster(base([metal3Template(withImage)]), pool(2));
    const plan = planModel(config);
    expect(plan.errors).toEqual([]);
    expect(plan.autoPools[0].nodes.map((n) => [n.name, n.host])).toEqual([
      ['prod-bare-0', 'gpu-a'],
      ['prod-bare-1', 'gpu-b'],
    ]);
    expect(plan.privatePools).toEqual([]);
    expect(plan.warnings).toEqual([]);
    expect(synthObjects(config).filter((o) => o.kind === 'HostClaim')).toEqual([]);
  });

  it('refuses a third host when two are listed', () => {
    const plan = planModel(withVcluster(base([metal3Template(withImage)]), pool(3)));
    expect(plan.errors.map((e) => e.message).join('\n')).toMatch(/2 matching host\(s\) free/);
  });

  it('names metalslice.io/image-url when the template would have no image to write', () => {
    const plan = planModel(withVcluster(base([metal3Template({})]), pool(1)));
    expect(plan.errors).toEqual([
      {
        path: 'vcluster.yaml.privateNodes.autoNodes[0].static[0]',
        message:
          "static pool bare: provider metalslice-metal3 runs metalslice's metal3 node template, which needs metalslice.io/image-url to write the host's image (vCluster Platform's apply fails without it): set it in vcluster.yaml.privateNodes.autoNodes[0].properties, or nodeProviders[0].nodeTypes[0].properties, or nodeProviders[0].properties",
      },
    ]);
  });
});

describe('profiles defined in vCluster Platform', () => {
  it('plan the pool without the profile and warn, naming the profile and what the plan assumed', () => {
    const kubevirt: NodeProviderSpec = { name: 'virt', kind: 'kubevirt', fleet: 'fra1', nodeTypes: [{ name: 'small', resources: { cpu: 2, memory: '4Gi' } }] };
    const text =
      'privateNodes: {enabled: true, defaultProfile: gpu-training, autoNodes: [{provider: virt, static: [{name: a, quantity: 1}, {name: b, quantity: 1}]}]}';
    const plan = planModel(withVcluster(base([kubevirt]), text));
    expect(plan.errors).toEqual([]);
    expect(plan.warnings.filter((w) => /node profile/.test(w.message))).toEqual([
      {
        path: 'vcluster.yaml.privateNodes.defaultProfile',
        message:
          'node profile "gpu-training" is not in nodeProfiles: if vCluster Platform defines it, the plan assumed its nodes join without its labels and taints (metalslice renders none of them); declare it under nodeProfiles (name, nodeLabels, taints) to have them set',
      },
    ]);
    expect(plan.vms.map((vm) => vm.labels['workload.vcluster.com/class'])).toEqual([undefined, undefined]);
  });
});

// kubevirt VMs, whole hosts and a cloud node from one file.
const MIXED = corpusText('088-mixed-kubevirt-metal3-aws.yaml');

describe('a vcluster.yaml mixing kubevirt, metal3 and aws', () => {
  const kubevirt: NodeProviderSpec = {
    name: 'kubevirt',
    kind: 'kubevirt',
    fleet: 'fra1',
    nodeTypes: [{ name: 'small', resources: { cpu: 2, memory: '4Gi' } }],
  };
  const config = () => withVcluster(base([kubevirt, metal3(IMAGE_PROPERTIES), aws]), MIXED);

  it('plans in one run: VMs on the quota, a host as a HostClaim, the cloud node listed', () => {
    const plan = planModel(config());
    expect(plan.errors).toEqual([]);
    expect(plan.report.pools.map((p) => [p.name, p.kind, p.nodes.length])).toEqual([
      ['vm-base', 'static', 2],
      ['vm-burst', 'dynamic', 0],
      ['metal-gpus', 'private', 1],
      ['cloud-edge', 'static', 1],
    ]);
    // The file-wide quota charges the VMs only: whole machines and cloud nodes are outside any quota.
    expect(plan.warnings.map((w) => w.path)).toEqual(['vcluster.yaml.privateNodes.autoNodes[2].static[0]']);
    expect(plan.report.quotas[0].virtualMachines).toBe(2);
  });

  it('synthesizes the VMs, the Karpenter NodePool and the HostClaim, and nothing for the cloud node', () => {
    const objects = synthObjects(config());
    const names = (kind: string) =>
      objects
        .filter((o) => o.kind === kind)
        .map((o) => o.metadata.name)
        .sort();
    expect(names('VirtualMachine')).toEqual(['prod-vm-base-0', 'prod-vm-base-1']);
    expect(names('HostClaim')).toEqual(['prod-metal-gpus-0']);
    expect(objects.filter((o) => o.kind === 'NodePool')).toHaveLength(1);
  });
});
