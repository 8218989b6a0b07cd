import { describe, expect, it } from '@jest/globals';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawnSync } from 'child_process';
import { App, TerraformStack, Testing } from 'cdktf';
import { KubernetesProvider } from '../../constructs/providers/kubernetes/provider';
import { RandomProvider } from '../../constructs/providers/random/provider';
import {
  ADOPT_MANIFEST_VMS_CONTEXT,
  ADOPT_MANIFEST_OBJECTS_CONTEXT,
  ADOPT_TOKEN_SECRETS_CONTEXT,
  CapacityPlan,
  ElasticFleet,
  ElasticNodePool,
  ElasticQuota,
  TenantCluster,
} from '../../constructs';
import { parse } from 'yaml';
import { findSecrets } from '../support/secret-scan';
import { EXAMPLE_CA, hosts } from '../support/models';
import { parsePlanJson } from '../support/plan-json';
import { inlineForEach, instancesByAddress, resourceInstances, stackObjects } from '../support/stack-objects';
import { defined } from '../support/defined';
import { drainBucketOf } from '../../constructs/parts/node-drain';
import { NODES_PER_CHUNK } from '../../constructs/parts/vm-nodes';
import { rolloutDelta } from '../support/synth';

interface Options {
  count?: number;
  withPlan?: boolean;
  quotaMemory?: string;
  /** A fleet and quota for hundreds of small nodes (1 CPU, 1 GiB, 1 GiB of disk each). */
  large?: boolean;
}

function build(app: App, options: Options = {}): TerraformStack {
  const stack = new TerraformStack(app, 'tenant');
  new KubernetesProvider(stack, 'kubernetes', { configPath: '/etc/metalslice/provider.kubeconfig' });
  new RandomProvider(stack, 'random');
  if (options.withPlan ?? true) new CapacityPlan(stack, 'plan');
  const large = options.large ?? false;
  const fleet = new ElasticFleet(stack, 'fleet', {
    hosts: large ? hosts(4, { cpu: 128, memory: '512Gi', disk: '4Ti' }) : hosts(2, { cpu: 32, memory: '128Gi', disk: '1Ti' }),
    reservedPerHost: { cpu: 2, memory: '4Gi' },
  });
  const quota = new ElasticQuota(stack, 'team', {
    fleet,
    organization: 'acme',
    limits: large ? { cpu: 400, memory: '400Gi', disk: '1Ti' } : { cpu: 16, memory: options.quotaMemory ?? '64Gi', disk: '500Gi' },
    maxVirtualMachines: large ? 400 : 4,
  });
  const cluster = new TenantCluster(stack, 'prod', {
    endpoint: 'https://10.0.0.10:6443',
    caCertificate: EXAMPLE_CA,
    kubeconfigPath: '/etc/metalslice/tenant.kubeconfig',
  });
  const shape = large ? { cpu: 1, memory: '1Gi', disk: '1Gi' } : { cpu: 4, memory: '16Gi', disk: '40Gi' };
  new ElasticNodePool(stack, 'workers', { quota, cluster, shape, count: options.count ?? 1 });
  return stack;
}

describe('constructs synth', () => {
  it('synthesizes one pool node as a VM, its cloud-init Secret and a bootstrap token (snapshot)', () => {
    const stack = build(Testing.app());
    const json = Testing.synth(stack);
    expect(JSON.parse(json)).toMatchSnapshot();
  });

  it('fails synth with the construct path and the fix, and writes nothing', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-fail-'));
    const app = new App({ outdir });
    build(app, { count: 4, quotaMemory: '32Gi' });
    expect(() => app.synth()).toThrow(
      /\[tenant\/plan\] tenant\/workers\.count: pool "workers" does not fit quota "team" .*lower count to 1 or raise tenant\/team\.limits/,
    );
    expect(fs.existsSync(path.join(outdir, 'stacks', 'tenant', 'cdk.tf.json'))).toBe(false);
    expect(fs.existsSync(path.join(outdir, 'stacks', 'tenant', 'metalslice-plan.json'))).toBe(false);
    fs.rmSync(outdir, { recursive: true, force: true });
  });

  it('starts the Markdown report with what changed since the last synth, and the JSON stays the plan alone', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-diff-'));
    const first = new App({ outdir });
    build(first, { count: 1 });
    first.synth();
    const second = new App({ outdir });
    build(second, { count: 2 });
    second.synth();
    const dir = path.join(outdir, 'stacks', 'tenant');
    const md = fs.readFileSync(path.join(dir, 'metalslice-plan.md'), 'utf8');
    expect(md).toContain('## Changes since the previous plan\n\n- nodes: 1 added, 0 removed, 0 replaced, 0 moved\n- pool workers: 1 → 2 nodes, 1 added');
    expect(md.indexOf('## Changes since the previous plan')).toBeLessThan(md.indexOf('## Fleets'));
    expect(parsePlanJson(fs.readFileSync(path.join(dir, 'metalslice-plan.json'), 'utf8')).changes).toBeUndefined();
    fs.rmSync(outdir, { recursive: true, force: true });
  });

  it('asks for a CapacityPlan when none covers the pool', () => {
    const stack = build(Testing.app(), { withPlan: false });
    expect(() => Testing.synth(stack)).toThrow(/no CapacityPlan covers this construct: add `new CapacityPlan\(stack, 'plan'\)`/);
  });

  it('rejects a negative count in the constructor', () => {
    const app = Testing.app();
    const stack = build(app);
    expect(
      () =>
        new ElasticNodePool(stack, 'bad', {
          quota: ElasticQuota.fromQuotaAttributes(stack, 'q2', {
            fleet: ElasticFleet.fromInventory(stack, 'f2', { hosts: [] }),
            organization: 'o',
            limits: {},
          }),
          cluster: new TenantCluster(stack, 'c2', { endpoint: 'https://x:6443', caCertificate: EXAMPLE_CA }),
          shape: {},
          count: -1,
        }),
    ).toThrow(/tenant\/bad\] count must be a whole number of nodes from 0 to 5,000 \(got -1\)/);
  });

  it('writes the ResourceQuota the plan proved, VMs wait until the quota controller has accounted it, and their cloud-init Secrets for the namespace only', () => {
    interface Accounting {
      triggers_replace: { hard: string };
      input: Record<string, string>;
      depends_on?: string[];
      provisioner: { 'local-exec': { command: string; environment: Record<string, string> } }[];
    }
    const json = JSON.parse(Testing.synth(build(Testing.app()))) as {
      resource: {
        terraform_data: Record<string, Accounting>;
        kubernetes_namespace_v1: Record<string, { metadata: { name: string } }>;
        kubernetes_manifest?: unknown;
      };
      locals: Record<string, unknown>;
    };
    // Applied server-side, as every object of the stack: no kubernetes_manifest, whose plan reads the cluster's OpenAPI document.
    expect(json.resource.kubernetes_manifest).toBeUndefined();
    const rq = defined(
      stackObjects(json).find((o) => o.object.kind === 'ResourceQuota'),
      'the ResourceQuota',
    );
    const hard = {
      'count/virtualmachines.kubevirt.io': '4',
      'requests.cpu': '16',
      'requests.memory': '64Gi',
      'requests.storage': '500Gi',
    };
    expect(rq.object.spec).toEqual({ hard });
    // Its accounting: made again when the limits change (and so waited for again), after the quota, by wait-quota
    // with the stack's kubeconfig and context.
    const [accountingName, accounting] = defined(
      Object.entries(json.resource.terraform_data).find(([key]) => /_Accounted_[0-9A-F]{8}$/.test(key)),
      "the quota's accounting",
    );
    expect(accounting.depends_on).toEqual([rq.address]);
    expect(JSON.parse(accounting.triggers_replace.hard)).toEqual(hard);
    // The kubeconfig the stack's kubernetes provider reads (build() gives it one).
    expect(accounting.input).toEqual({
      namespace: rq.object.metadata.namespace,
      name: rq.object.metadata.name,
      kubeconfig: '/etc/metalslice/provider.kubeconfig',
      context: '',
    });
    const [{ 'local-exec': exec }] = accounting.provisioner;
    expect(exec.command).toMatch(/^exec metalslice wait-quota "\$METALSLICE_QUOTA" --namespace "\$METALSLICE_NAMESPACE" /m);
    expect(exec.environment).toEqual({
      METALSLICE_NAMESPACE: '${self.input.namespace}',
      METALSLICE_QUOTA: '${self.input.name}',
      METALSLICE_KUBECONFIG: '${self.input.kubeconfig}',
      METALSLICE_CONTEXT: '${self.input.context}',
    });
    const vm = defined(
      stackObjects(json).find((o) => o.object.kind === 'VirtualMachine'),
      'a VirtualMachine',
    );
    // And on its own Secrets (they go after it), and on its cluster's node ends (its Node is deleted once it is gone):
    // each through a local that names them, one vertex between the instances (constructs/parts/addresses.ts).
    expect(vm.dependsOn).toEqual([
      `terraform_data.${accountingName}`,
      expect.stringMatching(/^local\.workers_nodes_Secrets_[0-9A-F]{8}$/),
      expect.stringMatching(/^local\.node-drains-prod_Ends-\d+_[0-9A-F]{8}$/),
    ]);
    const local = (ref: string) => json.locals[ref.replace(/^local\./, '')];
    expect(local(vm.dependsOn[1])).toMatch(
      /^\$\{\[kubectl_manifest\.workers_nodes_UserData_[0-9A-F]{8}, kubectl_manifest\.workers_nodes_BootstrapToken_[0-9A-F]{8}\]\}$/,
    );
    expect(local(vm.dependsOn[2])).toMatch(/^\$\{\[terraform_data\.node-drains-prod_End(-\d+)?_[0-9A-F]{8}\]\}$/);
    // The Secret lives in the quota's namespace too: a first apply must not create it before the namespace. It
    // waits for the namespace only, so Secrets come before the VMs (which wait for the ResourceQuota) in an apply.
    expect(rq.dependsOn).toHaveLength(1);
    const [nsName] = defined(
      Object.entries(json.resource.kubernetes_namespace_v1).find(([key]) => rq.dependsOn[0] === `kubernetes_namespace_v1.${key}`),
      "the ResourceQuota's namespace",
    );
    // The user data Secrets (the bootstrap tokens are in the tenant cluster's kube-system).
    const secrets = stackObjects(json).filter((o) => o.object.kind === 'Secret' && o.object.metadata?.namespace !== 'kube-system');
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(secret.dependsOn).toEqual([`kubernetes_namespace_v1.${nsName}`]);
  });

  it("runs the quota's wait as sh would: skipped when told, refused without metalslice on PATH, else metalslice with the quota and the kubeconfig", () => {
    const json = JSON.parse(Testing.synth(build(Testing.app()))) as {
      resource: { terraform_data: Record<string, { provisioner: { 'local-exec': { command: string } }[] }> };
    };
    const [, accounting] = defined(
      Object.entries(json.resource.terraform_data).find(([key]) => /_Accounted_[0-9A-F]{8}$/.test(key)),
      "the quota's accounting",
    );
    // What Terraform hands to sh: its template escapes undone.
    const command = accounting.provisioner[0]['local-exec'].command.replace(/\$\$\{/g, '${').replace(/%%\{/g, '%{');
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'wait-quota-sh-'));
    // A metalslice that prints what it was run with, one argument a line.
    fs.writeFileSync(path.join(bin, 'metalslice'), '#!/bin/sh\nprintf "%s\\n" "$@"\n', { mode: 0o755 });
    const sh = (env: Record<string, string>) =>
      spawnSync('/bin/sh', ['-c', command], {
        encoding: 'utf8',
        env: { PATH: '/usr/bin:/bin', METALSLICE_NAMESPACE: 'acme-team', METALSLICE_QUOTA: 'metalslice', ...env },
      });
    const skipped = sh({ METALSLICE_QUOTA_WAIT: 'skip' });
    expect({ status: skipped.status, out: skipped.stdout }).toEqual({
      status: 0,
      out: 'wait for quota acme-team/metalslice skipped (METALSLICE_QUOTA_WAIT=skip): what it counts may be refused until the quota controller has accounted it\n',
    });
    const missing = sh({});
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^metalslice is not on PATH: .* or set METALSLICE_QUOTA_WAIT=skip to deploy without that wait/);
    const ran = sh({ PATH: `${bin}:/usr/bin:/bin`, METALSLICE_KUBECONFIG: '/etc/p config', METALSLICE_CONTEXT: '', KUBE_CTX: 'provider' });
    expect({ status: ran.status, args: ran.stdout.split('\n') }).toEqual({
      status: 0,
      args: ['wait-quota', 'metalslice', '--namespace', 'acme-team', '--kubeconfig', '/etc/p config', '--context', 'provider', ''],
    });
  });

  it("applies each node's cloud-init Secret server-side, its data a base64 expression of the document, no token literal", () => {
    const json = JSON.parse(Testing.synth(build(Testing.app(), { count: 2 }))) as {
      resource: Record<string, Record<string, { yaml_body: string; sensitive_fields?: string[]; server_side_apply: boolean; force_conflicts: boolean }>>;
      locals: Record<string, Record<string, string>>;
      removed?: unknown;
    };
    // Not kubernetes_secret_v1 (a create whose response is lost would stop the next apply on "already exists"):
    // neither the user data nor the bootstrap tokens in the tenant cluster.
    expect(json.resource.kubernetes_secret_v1).toBeUndefined();
    // One resource for the pool's user data Secrets, an instance per node.
    const userData = resourceInstances<{ yaml_body: string }>(json, 'kubectl_manifest').filter(([key]) => key.includes('_UserData_'));
    expect(userData.map(([key]) => key.replace(/_[0-9A-F]{8}\[/, '[')).sort()).toEqual([
      'workers_nodes_UserData["workers-0"]',
      'workers_nodes_UserData["workers-1"]',
    ]);
    for (const [key, r] of userData) {
      expect(r).toMatchObject({ server_side_apply: true, force_conflicts: true, sensitive_fields: ['data'] });
      const secret = parse(r.yaml_body) as Record<string, unknown>;
      const node = /\["([^"]+)"\]$/.exec(key)![1];
      expect(secret).toEqual({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: `${node}-cloudinit`, namespace: 'acme-team', labels: { 'metalslice.io/pool': 'workers' } },
        type: 'Opaque',
        // data, not stringData (the live object never shows stringData: every plan would show drift), and
        // encoded by Terraform, from the document as the node renders it (its entry of the pool's documents).
        data: { userdata: `\${base64encode(local.${Object.keys(json.locals).find((k) => k.includes('_Documents_'))}[${JSON.stringify(node)}])}` },
      });
      const document = Object.entries(json.locals).find(([k]) => k.includes('_Documents_'))![1][node];
      expect(document).toMatch(/^#cloud-config\n/);
      expect(document).toContain(`hostname: ${node}\n`);
      // The token is a Terraform reference to the node's own instances of the pool's token resources.
      const own = JSON.stringify(node).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      expect(document).toMatch(
        new RegExp(`token: \\$\\{random_string\\.[\\w-]+\\[${own}\\]\\.result\\}\\.\\$\\{random_password\\.[\\w-]+\\[${own}\\]\\.result\\}\\n`),
      );
    }
    // No token, key or password literal anywhere.
    expect(findSecrets(JSON.stringify(json))).toEqual([]);
    // A fresh stack forgets nothing.
    expect(json.removed).toBeUndefined();
  });

  it('keeps the same resources, each with the same depends_on, whatever the pool size: only instance keys grow', () => {
    type Stack = { resource: Record<string, Record<string, { depends_on?: string[]; for_each?: Record<string, unknown> }>> };
    const shape = (count: number) => {
      const json = inlineForEach(JSON.parse(Testing.synth(build(Testing.app(), { count }))) as Stack);
      return Object.entries(json.resource).flatMap(([type, byName]) =>
        Object.entries(byName).map(([name, r]) => ({ address: `${type}.${name}`, dependsOn: r.depends_on ?? [], keys: Object.keys(r.for_each ?? {}).length })),
      );
    };
    const [one, two] = [shape(1), shape(2)];
    // What the state records per instance is its resource's dependencies: the same list at every size.
    expect(two.map(({ address, dependsOn }) => ({ address, dependsOn }))).toEqual(one.map(({ address, dependsOn }) => ({ address, dependsOn })));
    // The nodes are instances: the VMs, Secrets, tokens, drains and ends have one key per node.
    const grew = two.filter((r, i) => r.keys !== one[i].keys);
    expect(grew.map((r) => [r.keys, one[two.indexOf(r)].keys])).toEqual(grew.map(() => [2, 1]));
    expect(grew).toHaveLength(7);
  });

  it('holds a pool of more than NODES_PER_CHUNK nodes in chunks of it: one more node changes only the last chunk, and a later chunk is moved to from 0.6', () => {
    type Stack = { resource: Record<string, Record<string, { for_each?: Record<string, unknown> }>>; moved: { from: string; to: string }[] };
    const [json, grownJson] = [201, 202].map((count) => Testing.synth(build(Testing.app(), { count, large: true })));
    const [stack, grown] = [json, grownJson].map((j) => inlineForEach(JSON.parse(j) as Stack));
    // Each of the five node resources, per chunk: the first at `workers/nodes`, the others at `workers/nodes/<k>`.
    const chunks: string[] = [];
    for (const byName of Object.values(stack.resource))
      for (const [name, r] of Object.entries(byName)) {
        const chunk = /^workers_nodes_(?:(\d+)_)?(?:[A-Za-z]+_)?[0-9A-F]{8}$/.exec(name);
        if (!chunk) continue;
        chunks.push(chunk[1] ?? '0');
        expect(Object.keys(r.for_each!)).toHaveLength({ '0': NODES_PER_CHUNK, '1': NODES_PER_CHUNK, '2': 1 }[chunk[1] ?? '0']!);
      }
    expect(chunks.sort()).toEqual(['0', '1', '2'].flatMap((k) => Array<string>(5).fill(k)));
    // The 202nd node: exactly its seven instances (five node resources, its drain and end), nothing else changed.
    const bodies = (j: string) => new Map([...instancesByAddress(JSON.parse(j) as object)].map(([k, v]) => [k, { body: JSON.stringify(v) }]));
    const [was, is] = [bodies(json), bodies(grownJson)];
    const added = [...is.keys()].filter((k) => !was.has(k));
    expect(added).toHaveLength(7);
    expect(added.every((k) => k.endsWith('["workers-201"]'))).toBe(true);
    expect(added.filter((k) => /_nodes_2_/.test(k))).toHaveLength(5);
    // But the pool's roll, whose provisioner gained the node (an argument Terraform's plan does not show).
    const changed = [...was].filter(([k, v]) => is.get(k)?.body !== v.body).map(([k]) => k);
    expect(changed).toEqual([expect.stringMatching(/^terraform_data\.workers_rollout_[0-9A-F]{8}$/)]);
    expect(rolloutDelta(was.get(changed[0])!.body, is.get(changed[0])!.body)).toEqual({ dependsOn: [], nodes: ['workers-201'], restUnchanged: true });
    // A node of the second chunk: from its per-node address (0.2-0.5) to the first chunk's key (0.6), then to its own.
    const chain = grown.moved
      .filter((m) => m.from.includes('["workers-150"]') || m.to.includes('["workers-150"]'))
      .filter((m) => !m.from.startsWith('terraform_data.'));
    expect(chain).toHaveLength(10);
    for (const m of chain.filter((c) => !c.from.includes('['))) {
      const next = chain.find((c) => c.from === m.to);
      expect(m.to).toMatch(/_nodes_(\w+_)?[0-9A-F]{8}\["workers-150"\]$/);
      expect(next?.to).toMatch(/_nodes_1_(\w+_)?[0-9A-F]{8}\["workers-150"\]$/);
    }
  });

  it('moves every per-node resource of 0.2 to 0.5 (VmNode, at <pool>/<node>) to its key, and nothing else', () => {
    const json = JSON.parse(Testing.synth(build(Testing.app(), { count: 2 }))) as { moved: { from: string; to: string }[] };
    const parts = {
      Resource: 'kubectl_manifest',
      UserData: 'kubectl_manifest',
      Join_BootstrapToken: 'kubectl_manifest',
      Join_TokenId: 'random_string',
      Join_TokenSecret: 'random_password',
    };
    const expected = ['workers-0', 'workers-1'].flatMap((node) =>
      Object.entries(parts).map(([part, type]) => ({
        from: expect.stringMatching(new RegExp(`^${type}\\.workers_${node}_${part === 'Resource' ? '' : `${part}_`}[0-9A-F]{8}$`)),
        to: expect.stringMatching(
          new RegExp(`^${type}\\.workers_nodes_${part === 'Resource' ? '' : `${part.replace('Join_', '')}_`}[0-9A-F]{8}\\["${node}"\\]$`),
        ),
      })),
    );
    // (The drains' moves between their blocks are the next test's.)
    expect(json.moved.filter((m) => !m.from.startsWith('terraform_data.node-drains-'))).toEqual(expected);
  });

  it('moves the drain and end of a node whose VMs hash to another pair of drain blocks from the first pair (0.6), and no other', () => {
    const app = Testing.app();
    const stack = build(app, { count: 2 });
    const json = JSON.parse(Testing.synth(stack)) as { moved: { from: string; to: string }[] };
    const vms = stack.node.findAll().find((c) => c.node.path.endsWith('/workers/nodes/Resource'))!;
    const bucket = drainBucketOf(vms);
    const drains = json.moved.filter((m) => m.from.startsWith('terraform_data.node-drains-'));
    expect(drains).toEqual(
      bucket === 0
        ? []
        : ['workers-0', 'workers-1'].flatMap((node) => [
            {
              from: expect.stringMatching(new RegExp(`^terraform_data\\.node-drains-prod_[0-9A-F]{8}\\["${node}"\\]$`)),
              to: expect.stringMatching(new RegExp(`^terraform_data\\.node-drains-prod_Resource-${bucket}_[0-9A-F]{8}\\["${node}"\\]$`)),
            },
            {
              from: expect.stringMatching(new RegExp(`^terraform_data\\.node-drains-prod_End_[0-9A-F]{8}\\["${node}"\\]$`)),
              to: expect.stringMatching(new RegExp(`^terraform_data\\.node-drains-prod_End-${bucket}_[0-9A-F]{8}\\["${node}"\\]$`)),
            },
          ]),
    );
    expect(bucket).not.toBe(0); // the fixture's pool is outside the first pair, so the moves above are checked
  });

  it('writes the moves in HCL too, and refuses HCL for a deploy that takes 0.1 or 0.2 resources over', () => {
    const hcl = String(Testing.synthHcl(build(Testing.app(), { count: 2 })));
    const moves = [...hcl.matchAll(/moved \{\s*from\s*=\s*(\S+)\s*to\s*=\s*(\S+)\s*\}/g)].map((m) => [m[1], m[2]]);
    expect(moves.filter(([from]) => !from.startsWith('terraform_data.node-drains-'))).toHaveLength(10);
    expect(moves).toContainEqual([
      expect.stringMatching(/^kubectl_manifest\.workers_workers-1_UserData_[0-9A-F]{8}$/),
      expect.stringMatching(/^kubectl_manifest\.workers_nodes_UserData_[0-9A-F]{8}\["workers-1"\]$/),
    ]);
    for (const key of [ADOPT_MANIFEST_VMS_CONTEXT, ADOPT_TOKEN_SECRETS_CONTEXT, ADOPT_MANIFEST_OBJECTS_CONTEXT]) {
      const adopting = build(Testing.app({ context: { [key]: true } }), { count: 2 });
      expect(() => String(Testing.synthHcl(adopting))).toThrow(
        /taking objects over from (metalslice 0\.1 or 0\.2|an earlier metalslice \(context .*\)) needs JSON output/,
      );
    }
  });

  /** The `removed` blocks of the fleet's KubeVirt CR and the quota's ResourceQuota: each at its kubectl_manifest's address, under kubernetes_manifest. */
  const manifestObjects = (json: unknown): string[] =>
    stackObjects(json as object)
      .filter((o) => ['KubeVirt', 'ResourceQuota'].includes(o.object.kind))
      .map((o) => o.address.replace(/^kubectl_manifest\./, 'kubernetes_manifest.'))
      .sort();

  it("upgrading from 0.11 with its context key, forgets the fleet's KubeVirt CR and the quota's ResourceQuota without deleting them, and nothing else", () => {
    const plain = JSON.parse(Testing.synth(build(Testing.app(), { count: 2 }))) as { removed?: unknown[] };
    expect(plain.removed).toBeUndefined();
    const json = JSON.parse(Testing.synth(build(Testing.app({ context: { [ADOPT_MANIFEST_OBJECTS_CONTEXT]: true } }), { count: 2 }))) as {
      removed: { from: string; lifecycle: { destroy: boolean } }[];
      import?: unknown[];
    };
    expect(manifestObjects(json)).toHaveLength(2);
    // No import: the create applies server-side and takes the object over, keeping its UID.
    expect(json.removed).toEqual(manifestObjects(json).map((from) => ({ from, lifecycle: { destroy: false } })));
    expect(json.import).toBeUndefined();
  });

  it('upgrading from 0.1 with the adopt context key, forgets each kubernetes_secret_v1 user data Secret without destroying it', () => {
    const app = Testing.app({ context: { [ADOPT_MANIFEST_VMS_CONTEXT]: true } });
    const json = JSON.parse(Testing.synth(build(app, { count: 2 }))) as {
      moved: { from: string; to: string }[];
      removed: { from: string; lifecycle: { destroy: boolean } }[];
      import?: { to: string; id: string }[];
    };
    // The address each node's resource had (VmNode's construct path), under 0.1's types.
    const was = (part: RegExp) => json.moved.filter((m) => part.test(m.from)).map((m) => m.from.replace(/^[\w]+\./, ''));
    const [userData, tokens, vms] = [was(/_UserData_/), was(/_Join_BootstrapToken_/), was(/^kubectl_manifest\.workers_workers-\d_[0-9A-F]{8}$/)];
    expect([userData, tokens, vms].map((a) => a.length)).toEqual([2, 2, 2]);
    // Each Secret forgotten, not destroyed; no import: the create applies server-side and takes the Secret over.
    for (const id of [...userData, ...tokens]) expect(json.removed).toContainEqual({ from: `kubernetes_secret_v1.${id}`, lifecycle: { destroy: false } });
    // Each VM forgotten from kubernetes_manifest and imported at its key.
    for (const id of vms) expect(json.removed).toContainEqual({ from: `kubernetes_manifest.${id}`, lifecycle: { destroy: false } });
    expect(json.import).toEqual(
      ['workers-0', 'workers-1'].map((node) => ({
        to: expect.stringMatching(new RegExp(`^kubectl_manifest\\.workers_nodes_[0-9A-F]{8}\\["${node}"\\]$`)),
        id: `kubevirt.io/v1//VirtualMachine//${node}//acme-team`,
      })),
    );
    // And the fleet's and quota's objects, kubernetes_manifest in 0.1 too.
    for (const from of manifestObjects(json)) expect(json.removed).toContainEqual({ from, lifecycle: { destroy: false } });
    expect(json.removed).toHaveLength(8);
  });

  it("upgrading from 0.2 with the token context key, forgets each kubernetes_secret_v1 bootstrap token Secret and the fleet's and quota's kubernetes_manifest without destroying them, and nothing else", () => {
    const app = Testing.app({ context: { [ADOPT_TOKEN_SECRETS_CONTEXT]: true } });
    const json = JSON.parse(Testing.synth(build(app, { count: 2 }))) as {
      moved: { from: string; to: string }[];
      removed: { from: string; lifecycle: { destroy: boolean } }[];
      import?: unknown[];
    };
    const tokens = json.moved
      .filter((m) => m.from.includes('_Join_BootstrapToken_'))
      .map((m) => m.from.replace(/^kubectl_manifest\./, 'kubernetes_secret_v1.'));
    expect(tokens).toHaveLength(2);
    // And the fleet's and quota's objects, kubernetes_manifest in 0.2 too.
    expect(json.removed.map((r) => r.from).sort()).toEqual([...tokens, ...manifestObjects(json)].sort());
    expect(json.removed.every((r) => r.lifecycle.destroy === false)).toBe(true);
    expect(json.import).toBeUndefined();
  });
});
