/**
 * The bad-input corpus: each case breaks one thing in a valid config and must be refused with exactly one
 * problem, at the path of that thing, whose message says what is wrong (and how to fix it). Nothing may
 * crash or pass.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { TerraformStack, Testing } from 'cdktf';
import { KubernetesProvider } from '../../constructs/providers/kubernetes/provider';
import { RandomProvider } from '../../constructs/providers/random/provider';
import { addConfig, CapacityPlan } from '../../constructs';
import { parseConfigText } from '../../constructs/core/input/config';
import { MetalsliceError, PlanIssue } from '../../constructs/core/base/errors';
import { planModel } from '../../constructs/core/plan';
import { importVclusterAutoNodes } from '../../constructs/core/input/vcluster';
import { EXAMPLE_CA } from '../support/models';
import { setAt } from '../support/json-tree';
import { Doc, validConfig as valid } from '../support/valid-config';

function problems(input: Doc | string): readonly PlanIssue[] {
  const text = typeof input === 'string' ? input : JSON.stringify(input);
  try {
    return planModel(parseConfigText(text, 'c.yaml')).errors;
  } catch (e) {
    if (e instanceof MetalsliceError) return e.issues;
    throw e;
  }
}

function set(doc: Doc, path: (string | number)[], value: unknown): Doc {
  setAt(doc, path, value);
  return doc;
}

function pathText(path: (string | number)[]): string {
  return path.reduce<string>(
    (acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : /^[A-Za-z_][A-Za-z0-9_-]*$/.test(k) ? (acc === '' ? k : `${acc}.${k}`) : `${acc}["${k}"]`),
    '',
  );
}

interface Case {
  readonly title: string;
  readonly input: Doc | string;
  readonly path: string;
  readonly message: RegExp;
}

const cases: Case[] = [];
const at = (title: string, where: (string | number)[], value: unknown, message: RegExp, reportedAt = pathText(where)) =>
  cases.push({ title, input: set(valid(), where, value), path: reportedAt, message });

// 1. Quantities: wrong types, negative, not a quantity, unknown units.
const quantityFields: (string | number)[][] = [
  ['fleets', 0, 'hosts', 0, 'capacity', 'cpu'],
  ['fleets', 0, 'hosts', 0, 'capacity', 'memory'],
  ['fleets', 0, 'reservedPerHost', 'memory'],
  ['quotas', 0, 'limits', 'cpu'],
  ['quotas', 0, 'limits', 'memory'],
  ['quotas', 0, 'limits', 'disk'],
  ['nodePools', 0, 'shape', 'cpu'],
  ['nodePools', 0, 'shape', 'memory'],
  ['nodePools', 0, 'shape', 'disk'],
  ['nodeProviders', 0, 'nodeTypes', 0, 'resources', 'memory'],
];
for (const f of quantityFields) {
  const name = String(f[f.length - 1]);
  at(`${pathText(f)} negative`, f, '-1', new RegExp(`${name} must not be negative`));
  at(`${pathText(f)} not a quantity`, f, 'lots', /is not a Kubernetes quantity.*like 500m, 8, 32Gi or 2Ti/);
  at(`${pathText(f)} unknown unit`, f, '10GB', /"10GB" is not a Kubernetes quantity/);
  at(`${pathText(f)} a boolean`, f, true, /must be a string or a number \(got true\)/);
  at(`${pathText(f)} a list`, f, ['4'], /must be a string or a number/);
}
// 2. Sizes without a unit: bytes, almost never meant.
for (const f of quantityFields.filter((f) => ['memory', 'disk'].includes(String(f[f.length - 1])))) {
  at(`${pathText(f)} unit-less small`, f, 100, /has no unit, so it means 100 bytes: write it with a unit, e.g. 100Gi/);
  at(`${pathText(f)} unit-less absurd`, f, 2e21, /has no unit .*more than any machine holds/);
}
// 3. Names that are not DNS-1123 labels, written consistently (every reference uses the bad name too):
// the name is the one problem, not the references to it.
function renamed(kind: 'fleets' | 'quotas' | 'clusters' | 'nodePools' | 'nodeProviders', name: string): Doc {
  const doc = valid();
  doc[kind][0].name = name;
  if (kind === 'fleets') for (const x of [...doc.quotas, ...doc.nodeProviders]) x.fleet = name;
  if (kind === 'quotas') for (const x of [...doc.nodePools, ...doc.autoNodes]) x.quota = name;
  if (kind === 'clusters') for (const x of [...doc.nodePools, ...doc.autoNodes]) x.cluster = name;
  if (kind === 'nodeProviders') for (const x of doc.autoNodes) x.provider = name;
  return doc;
}
for (const kind of ['fleets', 'quotas', 'clusters', 'nodePools', 'nodeProviders'] as const) {
  for (const bad of ['Team_A', '-a', 'a b', 'a'.repeat(64)])
    cases.push({
      title: `${kind} name ${bad.slice(0, 8)}`,
      input: renamed(kind, bad),
      path: `${kind}[0].name`,
      message: /must consist of lower-case|is \d+ characters long|not a DNS-1123 label/,
    });
}
// 4. Whole numbers.
for (const [where, bad, message] of [
  [['nodePools', 0, 'count'], '2', /must be a whole number \(got "2"\)/],
  [['nodePools', 0, 'count'], -1, /must be 0 or more \(got -1\)/],
  [['nodePools', 0, 'count'], 1.5, /must be a whole number \(got 1.5\)/],
  [['quotas', 0, 'maxVirtualMachines'], -3, /must be 0 or more/],
  [['quotas', 0, 'liveMigrations'], 'one', /must be a whole number/],
  [['fleets', 0, 'podsPerHost'], 0, /must be 1 or more/],
  [['fleets', 0, 'cpuAllocationRatio'], 0, /must be more than 0/],
  [['fleets', 0, 'cpuAllocationRatio'], 1.5, /not a whole number of 1 or more: KubeVirt's cpuAllocationRatio is an integer/],
  [['fleets', 0, 'memoryOvercommit'], 5, /must be 10 or more/],
  [['autoNodes', 0, 'static', 0, 'quantity'], -1, /must be 0 or more/],
] as [(string | number)[], unknown, RegExp][]) {
  at(`${pathText(where)} = ${JSON.stringify(bad)}`, where, bad, message);
}
// 5. Dangling references.
for (const [where, message] of [
  [['quotas', 0, 'fleet'], /no fleet named "nope"; known: fra1/],
  [['nodePools', 0, 'quota'], /no quota named "nope"; known: team-a/],
  [['nodePools', 0, 'cluster'], /no cluster named "nope"; known: prod/],
  [['nodeProviders', 0, 'fleet'], /unknown fleet "nope": use one of fra1/],
  [['autoNodes', 0, 'cluster'], /nope/],
  [['autoNodes', 0, 'provider'], /nope/],
  [['autoNodes', 0, 'quota'], /nope/],
] as [(string | number)[], RegExp][]) {
  at(`dangling ${pathText(where)}`, where, 'nope', message);
}
// 6. Duplicates within a kind and clashes across kinds.
for (const kind of ['fleets', 'quotas', 'clusters', 'nodePools', 'nodeProviders'] as const) {
  const doc = valid();
  doc[kind].push({ ...doc[kind][0] });
  cases.push({ title: `duplicate ${kind}`, input: doc, path: `${kind}[1].name`, message: /already (used|defined)/ });
}
// The clash is reported at the owner that comes later in fleets, quotas, clusters, node pools, providers.
for (const [a, b] of [
  ['quotas', 'nodePools'],
  ['fleets', 'clusters'],
  ['nodePools', 'nodeProviders'],
  ['fleets', 'quotas'],
] as const) {
  const doc = valid();
  doc[b][0].name = doc[a][0].name;
  // Renaming a target breaks its references; point them at the new name so only the clash remains.
  for (const p of doc.nodePools) if (b === 'quotas') p.quota = doc.quotas[0].name;
  for (const e of doc.autoNodes) if (b === 'quotas') e.quota = doc.quotas[0].name;
  for (const p of [...doc.nodePools, ...doc.autoNodes]) if (b === 'clusters') p.cluster = doc.clusters[0].name;
  for (const e of doc.autoNodes) if (b === 'nodeProviders') e.provider = doc.nodeProviders[0].name;
  cases.push({ title: `${a} and ${b} share a name`, input: doc, path: `${b}[0].name`, message: /would belong to both/ });
}
// 7. Labels and taints.
for (const where of [
  ['nodePools', 0, 'labels'],
  ['autoNodes', 0, 'static', 0, 'nodeLabels'],
] as (string | number)[][]) {
  at(`${pathText(where)} bad key`, [...where, 'bad key!'], 'x', /label key|not a valid label key|the name part/, `${pathText(where)}["bad key!"]`);
  at(`${pathText(where)} bad value`, [...where, 'ok'], 'has space', /label value|not a valid label value/);
  at(`${pathText(where)} too long value`, [...where, 'ok'], 'v'.repeat(64), /64 characters long/);
  at(
    `${pathText(where)} kubelet-refused prefix`,
    [...where, 'node-role.kubernetes.io/worker'],
    '',
    /the kubelet refuses to join with labels under node-role.kubernetes.io/,
    `${pathText(where)}["node-role.kubernetes.io/worker"]`,
  );
}
at('taint effect', ['nodePools', 0, 'taints', 0, 'effect'], 'Never', /must be one of "NoSchedule", "PreferNoSchedule", "NoExecute"/);
at('taint without key', ['nodePools', 0, 'taints', 0, 'key'], undefined, /missing required field "key"/);
at('taint bad key', ['nodePools', 0, 'taints', 0, 'key'], 'a b', /key/);
// 8. Requirements.
const req = ['autoNodes', 0, 'static', 0, 'nodeTypeSelector', 0];
at('value with values', req, { property: 'tier', value: 'a', values: ['b'] }, /either value or values, not both/, pathText(req));
at('Exists with a value', req, { property: 'tier', operator: 'Exists', value: 'a' }, /takes no value/, pathText(req));
at("NotExists (the docs' spelling)", req, { property: 'tier', operator: 'NotExists' }, /must be one of .*"DoesNotExist"/, `${pathText(req)}.operator`);
at('Gt with a word', req, { property: 'cpu', operator: 'Gt', value: 'many' }, /compares integers/, `${pathText(req)}.value`);
at('requirement without property', req, { value: 'a' }, /missing required field "property"/, `${pathText(req)}.property`);
at('In without values', req, { property: 'tier', operator: 'In' }, /needs value/, pathText(req));
// 9. Cluster endpoints and CA.
at('CA not PEM', ['clusters', 0, 'caCertificate'], 'not a cert', /is not a PEM certificate/);
at('CA truncated', ['clusters', 0, 'caCertificate'], EXAMPLE_CA.slice(0, 120), /is not a PEM certificate|not a valid/);
at('endpoint ftp', ['clusters', 0, 'endpoint'], 'ftp://10.0.0.10:6443', /is not an API server URL: write https:\/\/HOST:PORT/);
at('endpoint without scheme', ['clusters', 0, 'endpoint'], '10.0.0.10:6443', /is not an API server URL/);
at('endpoint with path', ['clusters', 0, 'endpoint'], 'https://', /is not an API server URL/);
at('kubernetesVersion', ['clusters', 0, 'kubernetesVersion'], 'v1.33.0', /must match pattern/);
// 10. Unknown keys, with the key a typo meant.
at('top-level typo', ['fleet'], [], /unknown field "fleet": did you mean "fleets"\?/);
at('quota typo', ['quotas', 0, 'limit'], {}, /unknown field "limit": did you mean "limits"\?/);
at('pool typo', ['nodePools', 0, 'cout'], 2, /did you mean "count"\?/);
at('host typo', ['fleets', 0, 'hosts', 0, 'capacty'], {}, /did you mean "capacity"\?/);
at('provider typo', ['nodeProviders', 0, 'nodeType'], [], /did you mean "nodeTypes"\?/);
at('auto typo', ['autoNodes', 0, 'dynamc'], [], /did you mean "dynamic"\?/);
at('unknown key', ['nodePools', 0, 'colour'], 'blue', /unknown field "colour": remove it/);
// 11. Kinds and enums.
at('provider kind', ['nodeProviders', 0, 'kind'], 'vmware', /must be one of "kubevirt", "metal3", "terraform"/);
at('placement', ['nodePools', 0, 'placement'], 'random', /must be one of "spread", "planned"/);
at('rootDisk', ['nodePools', 0, 'rootDisk'], 'floppy', /must be one of/);
at('evictionStrategy', ['nodePools', 0, 'vm'], { evictionStrategy: 'Teleport' }, /must be one of/, 'nodePools[0].vm.evictionStrategy');
at('hugepages', ['nodePools', 0, 'vm'], { hugepages: '4Ki' }, /must be one of "2Mi", "1Gi"/, 'nodePools[0].vm.hugepages');
// 12. YAML/JSON text.
const yamlCases: [string, string, string, RegExp][] = [
  ['tabs as indentation', 'fleets:\n\t- name: a\n', 'c.yaml:2', /Tabs are not allowed|TAB_AS_INDENT/],
  ['unclosed flow list', 'fleets: [{name: a\n', 'c.yaml:', /fix the YAML\/JSON syntax/],
  ['duplicate key', 'fleets: []\nfleets: []\n', 'c.yaml:2', /DUPLICATE_KEY|unique/i],
  ['alias to nothing', 'fleets: *nothing\n', 'c.yaml', /fix the YAML\/JSON syntax/],
  [
    'alias bomb',
    `a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n`,
    'c.yaml',
    /alias|resource exhaustion/i,
  ],
  ['a list, not a map', '- fleets\n', '(config)', /must be a map/],
  ['a bare string', 'fleets\n', '(config)', /must be a map/],
  ['empty', '', '(config)', /the config is empty/],
  ['oversized', `# ${'x'.repeat(9 * 1024 * 1024)}\nfleets: []\n`, 'c.yaml', /too large/],
];
for (const [title, text, path, message] of yamlCases) cases.push({ title, input: text, path, message });

describe(`bad inputs: ${cases.length} cases, each refused once at its root`, () => {
  let refused = 0;
  afterAll(() => {
    process.stdout.write(`bad-input corpus: ${cases.length} inputs tried, ${refused} refused cleanly with one problem at its path\n`);
  });

  it('holds at least 150 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
  });

  it.each(cases.map((c) => [c.title, c] as const))('%s', (_title, c) => {
    const found = problems(c.input);
    expect(found).toHaveLength(1);
    expect(found[0].path.startsWith(c.path)).toBe(true);
    expect(found[0].message).toMatch(c.message);
    refused++;
  });
});

/**
 * The same mistakes in a config app (addConfig, as examples/config-app.ts builds one): refused before any
 * construct is built, with the same single problem at the config's path, never a construct error midway.
 * (TypeScript apps that build constructs themselves get construct paths: test/unit/construct-props.test.ts.)
 */
describe('bad inputs in a config app (addConfig)', () => {
  const docs = cases.filter((c) => typeof c.input !== 'string');

  it.each(docs.map((c) => [c.title, c] as const))('%s', (_title, c) => {
    const stack = new TerraformStack(Testing.app(), 'app');
    new KubernetesProvider(stack, 'k8s', {});
    new RandomProvider(stack, 'random');
    new CapacityPlan(stack, 'plan', { writeReport: false });
    let error: unknown;
    try {
      addConfig(stack, c.input as never);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MetalsliceError);
    const issues = (error as MetalsliceError).issues;
    expect(issues).toHaveLength(1);
    expect(issues[0].path.startsWith(c.path)).toBe(true);
    expect(issues[0].message).toMatch(c.message);
    // Nothing was built.
    expect(stack.node.children.map((n) => n.node.id).sort()).toEqual(['k8s', 'plan', 'random']);
  });
});

/**
 * Input is never echoed: a file that is not a map (a secret file named by mistake, or on purpose) is described
 * by its type and size, and a scalar by at most a short escaped excerpt. Every message of every case holds.
 */
describe('bad inputs are described, never echoed', () => {
  const SECRET = 'GITHUB_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyzABCD';
  const everything = (issues: readonly PlanIssue[]) => issues.map((i) => `${i.path}: ${i.message}`).join('\n');

  it.each([
    ['a bare string (an environment file)', `${SECRET}\n`, /must be a map \(got a string of 57 characters\)/],
    ['a list of secrets', `- ${SECRET}\n- PASSWORD=hunter2\n`, /must be a map \(got a list of 2 items\)/],
    ['a multi-line block string', `|\n  ${SECRET}\n  root:x:0:0:root:/root:/bin/bash\n`, /must be a map \(got a string of \d+ characters\)/],
  ])('a config that is %s names its type, not its content', (_title, text, message) => {
    const found = everything(problems(text));
    expect(found).toMatch(message);
    expect(found).not.toContain('ghp_');
    expect(found).not.toContain('GITHUB_TOKEN');
    expect(found).not.toContain('hunter2');
    expect(found).not.toContain('/bin/bash');
  });

  it('a vcluster file that is not a map names its type, not its content', () => {
    const result = importVclusterAutoNodes(`${SECRET}\nHOME=/root\n`, { cluster: 'prod', pathPrefix: 'vc.yaml' });
    const found = everything(result.issues);
    expect(found).toMatch(/must be a map/);
    expect(found).not.toContain('ghp_0123456789abcdefghijklmnopqrstuvwxyz');
    expect(found).not.toContain('HOME=/root');
  });

  it('a map where a scalar belongs is described by its size, not printed', () => {
    const found = everything(problems(set(valid(), ['quotas', 0, 'organization'], { secret: SECRET })));
    expect(found).toMatch(/quotas\[0\]\.organization: must be a string \(got a map of 1 key\)/);
    expect(found).not.toContain('ghp_');
  });

  it('quotes at most 40 characters of a long scalar', () => {
    const found = everything(problems(set(valid(), ['quotas', 0, 'limits', 'cpu'], `8${'x'.repeat(500)}`)));
    expect(found).toMatch(/must be at most 64 characters \(got "8x{39}…" \(501 characters\)\)/);
  });

  it('shows control characters and terminal escapes as escapes, never raw', () => {
    const found = everything(problems(set(valid(), ['quotas', 0, 'limits', 'cpu'], '8\u001b[2J\r\nFAKE: ok\u202e')));
    expect(found).toContain('"8\\u001b[2J\\r\\nFAKE: ok\\u202e" is not a Kubernetes quantity');

    expect(found).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
  });

  it.each([
    ['1e400', /Infinity/],
    ['-1e400', /-Infinity/],
    ['.nan', /NaN/],
  ])('reports %s as what it is, not as null', (value, message) => {
    const found = everything(problems(`fleets:\n  - name: fra1\n    podsPerHost: ${value}\n`));
    expect(found).toMatch(message);
    expect(found).not.toContain('got null');
  });

  it('keeps a hostile map key out of the path raw', () => {
    const key = `x\u001b]0;pwned\u0007${'k'.repeat(300)}`;
    const found = everything(problems(set(valid(), ['quotas', 0, key], 1)));
    expect(found).toContain('\\u001b]0;pwned\\u0007');
    expect(found).not.toContain('k'.repeat(100));

    expect(found).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
  });
});

/**
 * Bounds before work: every count, quantity, limit and ratio has an upper bound (constructs/core/base/bounds.ts),
 * refused at its path at once, before the planner builds a VM. Each of these hung, took seconds and hundreds
 * of MiB, or crashed (exit 70) before the bounds existed.
 */
describe('bounds before work', () => {
  const first = (doc: Doc | string) => {
    const started = Date.now();
    const found = problems(doc);
    expect(Date.now() - started).toBeLessThan(3000);
    return found;
  };

  it.each([
    ['count: 1e9', ['nodePools', 0, 'count'], 1e9, /must be 5000 or less/],
    ['count: 100000', ['nodePools', 0, 'count'], 100000, /must be 5000 or less/],
    ['count: 9007199254740993', ['nodePools', 0, 'count'], 9007199254740993, /must be 5000 or less/],
    ['dynamic limits.nodes: 1e9', ['autoNodes', 0, 'dynamic', 0, 'limits', 'nodes'], 1e9, /limits\.nodes must be a whole number of nodes from 0 to 5,000/],
    ['static quantity: 1e6', ['autoNodes', 0, 'static', 0, 'quantity'], 1e6, /must be 5000 or less/],
    ['maxCapacity: 1e12', ['nodeProviders', 0, 'nodeTypes', 0, 'maxCapacity'], 1e12, /must be 5000 or less/],
    ['memory: 9Pi on a host', ['fleets', 0, 'hosts', 0, 'capacity', 'memory'], '9Pi', /more than the 4Pi one machine may hold: check the unit \(Ti, not Pi\)/],
    ['cpu: "1e60" on a host', ['fleets', 0, 'hosts', 0, 'capacity', 'cpu'], '1e60', /more than the 1,000,000 cores/],
    ['quota cpu: 0.0001', ['quotas', 0, 'limits', 'cpu'], 0.0001, /finer than a millicore/],
    ['cpuAllocationRatio: 1e12', ['fleets', 0, 'cpuAllocationRatio'], 1e12, /must be 100 or less/],
    ['memoryOvercommit: 1e6', ['fleets', 0, 'memoryOvercommit'], 1e6, /must be 1000 or less/],
    ['podsPerHost: 1e9', ['fleets', 0, 'podsPerHost'], 1e9, /must be 2500 or less/],
    ['liveMigrations: 1e9', ['quotas', 0, 'liveMigrations'], 1e9, /must be 1000 or less/],
    ['endpoint port 99999', ['clusters', 0, 'endpoint'], 'https://10.0.0.10:99999', /port 99999 is not a TCP port \(1 to 65535\)/],
    ['a 300-character host name', ['fleets', 0, 'hosts', 0, 'name'], 'h'.repeat(300), /must be at most 253 characters/],
  ] as const)('refuses %s at its path', (_title, where, value, message) => {
    const found = first(set(valid(), [...where], value));
    expect(found).toHaveLength(1);
    expect(found[0].path.startsWith(pathText([...where]))).toBe(true);
    expect(found[0].message).toMatch(message);
  });

  it('refuses a fleet of more hosts than a cluster holds, before reading them', () => {
    const doc = valid();
    doc.fleets[0].hosts = Array.from({ length: 5001 }, (_, i) => ({ name: `bm-${i}`, capacity: { cpu: 8, memory: '32Gi' } }));
    expect(first(doc)[0]).toEqual({ path: 'fleets[0].hosts', message: expect.stringMatching(/has 5,001 items, more than the 5,000 hosts of a fleet/) });
  });

  it('refuses more nodes over all pools than one plan holds, before building any', () => {
    const doc = valid();
    doc.nodePools = Array.from({ length: 5 }, (_, i) => ({ ...doc.nodePools[0], name: `w${i}`, count: 4500 }));
    const found = first(doc);
    expect(found).toContainEqual({ path: '(config)', message: expect.stringMatching(/declares 22,501 nodes over all pools, more than the 20,000/) });
  });

  it.each([
    ['a file:// image url', { url: 'file:///etc/shadow', checksum: 'a'.repeat(64) }, /image\.url must be an http\(s\) or oci URL/],
    [
      'a checksum that is neither a digest nor a URL',
      { url: 'https://images.example/os.raw', checksum: 'not-a-url' },
      /image\.checksum must be .* or an http\(s\) URL/,
    ],
    [
      'a sha256 checksum of the wrong length',
      { url: 'https://images.example/os.raw', checksum: 'ab12', checksumType: 'sha256' },
      /sha256 digest \(64 hex digits\)/,
    ],
  ])('refuses a private pool with %s', (_title, image, message) => {
    const doc = valid();
    doc.nodeProviders.push({
      name: 'metal',
      kind: 'metal3',
      hosts: [{ name: 'gpu-01', labels: { class: 'gpu' }, state: 'available', capacity: { cpu: 32, memory: '256Gi' } }],
      nodeTypes: [{ name: 'bm', hostSelector: { matchLabels: { class: 'gpu' } } }],
    });
    doc.privateNodePools = [{ name: 'metal-pool', cluster: 'prod', provider: 'metal', nodeType: 'bm', count: 1, image }];
    const found = first(doc);
    expect(found).toEqual([{ path: 'privateNodePools[0].image', message: expect.stringMatching(message) }]);
  });
});

/** Grants and namespaces: a tenant never gets a system user or group by accident, nor a namespace metalslice does not own. */
describe('grants and namespaces', () => {
  it.each([
    'system:anonymous',
    'group:system:unauthenticated',
    'group:system:authenticated',
    'group:system:serviceaccounts',
    'system:serviceaccount:kube-system:default',
  ])('refuses the consumer %s unless allowed', (consumer) => {
    const found = problems(set(valid(), ['quotas', 0, 'consumers'], ['group:acme', consumer]));
    expect(found).toEqual([{ path: 'quotas[0].consumers[1]', message: expect.stringMatching(/system user or group.*allowSystemConsumers: true/) }]);
  });

  it('grants system consumers when allowSystemConsumers is set, and the report says so', () => {
    const doc = set(valid(), ['quotas', 0, 'consumers'], ['system:anonymous']);
    set(doc, ['quotas', 0, 'allowSystemConsumers'], true);
    const plan = planModel(parseConfigText(JSON.stringify(doc), 'c.yaml'));
    expect(plan.errors).toEqual([]);
    expect(plan.warnings).toContainEqual({
      path: 'quotas[0].consumers',
      message: expect.stringMatching(/grants "system:anonymous".*allowSystemConsumers: true/),
    });
  });

  it.each(['kube-system', 'kube-public', 'default', 'kubevirt', 'metal3', 'cdi'])('refuses the quota namespace %s', (namespace) => {
    const found = problems(set(valid(), ['quotas', 0, 'namespace'], namespace));
    expect(found).toEqual([{ path: 'quotas[0].namespace', message: expect.stringMatching(/not to a tenant/) }]);
  });

  it('refuses a derived namespace that lands on kube-system (organization kube, quota system)', () => {
    const doc = valid();
    doc.quotas[0].organization = 'kube';
    doc.quotas[0].name = 'system';
    for (const p of doc.nodePools) p.quota = 'system';
    for (const a of doc.autoNodes) a.quota = 'system';
    const found = problems(doc);
    expect(found).toEqual([{ path: 'quotas[0].namespace', message: expect.stringMatching(/"kube-system" belongs to Kubernetes itself/) }]);
  });
});
