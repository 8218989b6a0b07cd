// Two renderers, one VM: for every static kubevirt node of every vcluster.yaml in the conformance suite that
// vCluster accepts and metalslice plans, the Terraform node template vCluster Platform runs per claim
// (node-templates/kubevirt, through modules/kubevirt-node) must write the same VirtualMachine as the
// constructs (constructs/render/kubevirt.ts). OpenTofu evaluates the template's module with the claim the
// platform would pass for that node (`tofu console`: no cluster needed), and the two objects are compared whole.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MetalsliceConfig } from '../../constructs/core/input/model';
import { planModel } from '../../constructs/core/plan';
import { pinVm, PlannedVm } from '../../constructs/core/vm/vm';
import { hostGroupLabel } from '../../constructs/core/naming/derived';
import type { RenderedVm } from '../support/kube-docs';
import { renderVirtualMachine } from '../../constructs/render/kubevirt';
import { nodeTemplateVars } from '../../constructs/render/node-template';
import { claimFree, roadSpecs, roadsModel, roadsPlan, templateVars } from '../support/four-roads';
import { corpusCatalogue, corpusFiles, corpusModel, vclusterVerdicts } from '../support/vcluster-corpus';
import { copyTerraformTree, expectOk, tofu } from './harness';

jest.setTimeout(900_000);

/**
 * The claim vCluster Platform passes to the template for `vm`: the node claim's name, the chosen node type
 * with its resources (quantities as strings) and properties, the tenant instance, and the claim's properties.
 * The metalslice.io/* properties are the ones node-templates/kubevirt/main.tf lists: where the VM goes
 * (namespace, quota, pool, a pinned host, a host group's label). Everything about the VM itself comes from the
 * vars file.
 */
function claimFor(vm: PlannedVm, model: MetalsliceConfig): Record<string, unknown> {
  const entry = (model.autoNodes ?? []).find(
    (a) => a.cluster === vm.cluster && [...(a.static ?? [])].some((p) => `${a.cluster}-${p.name}` === vm.pool || p.name === vm.pool),
  );
  const provider = (model.nodeProviders ?? []).find((p) => p.name === entry?.provider)!;
  const type = provider.nodeTypes.find((t) => t.name === vm.nodeType || `${provider.name}.${t.name}` === vm.nodeType)!;
  return {
    vcluster: {
      name: vm.name,
      namespace: `vcluster-${vm.cluster}`,
      userData: '#cloud-config\n',
      requirements: {},
      properties: {
        ...provider.properties,
        ...type.properties,
        ...entry?.properties,
        'metalslice.io/namespace': vm.namespace,
        'metalslice.io/quota': vm.quota,
        'metalslice.io/pool': vm.pool,
        // A node the plan pins (its report says which) is pinned by the platform's claim too.
        ...(vm.placement === 'planned' && vm.host !== undefined ? { 'metalslice.io/host': vm.host } : {}),
        // A pool the plan confines to a host group: the group's Node label key, as the plan names it.
        ...(vm.placement === 'spread' && vm.hostGroup?.label ? { 'metalslice.io/host-group': vm.hostGroup.label } : {}),
      },
      nodeClaim: { metadata: { name: vm.name, namespace: 'p-acme' } },
      nodeType: {
        metadata: { name: type.name },
        spec: { resources: Object.fromEntries(Object.entries(type.resources ?? {}).map(([k, v]) => [k, String(v)])), properties: type.properties ?? {} },
      },
      nodeProvider: { metadata: { name: provider.name } },
      instance: { metadata: { name: vm.cluster, namespace: 'p-acme' } },
    },
  };
}

/** The provider of a static pool's VM. */
function providerOf(vm: PlannedVm, model: MetalsliceConfig): string {
  return (model.autoNodes ?? []).find(
    (a) => a.cluster === vm.cluster && (a.static ?? []).some((p) => `${a.cluster}-${p.name}` === vm.pool || p.name === vm.pool),
  )!.provider;
}

/** The VirtualMachine the node template writes for a claim, as OpenTofu evaluates it (`tofu console`). */
export async function templateVm(dir: string, varFiles: readonly string[]): Promise<unknown> {
  const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('tofu', ['console', '-no-color', ...varFiles.map((f) => `-var-file=${f}`)], {
      cwd: dir,
      env: { ...process.env, CHECKPOINT_DISABLE: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end('nonsensitive(jsonencode(module.node.virtual_machine))\n');
  });
  const line = result.stdout.trim().split('\n').pop() ?? '';
  expect({ code: result.code, stderr: result.stderr.slice(-2000) }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(JSON.parse(line) as string) as unknown;
}

describe('the kubevirt node template and the constructs render the same VM', () => {
  const catalogue = corpusCatalogue();
  const verdicts = vclusterVerdicts();
  const cases: { file: string; vm: PlannedVm; model: MetalsliceConfig }[] = [];
  for (const file of corpusFiles()) {
    const verdict = verdicts.get(file.name);
    if (!verdict?.ok || (verdict.schemaErrors ?? []).length > 0) continue;
    const model = corpusModel(file, catalogue);
    const plan = planModel(model);
    if (!plan.ok) continue; // refused on purpose, each for its stated reason (test/unit/vcluster-conformance.test.ts)
    // One node per static pool: a pool's nodes differ only in their index.
    const seen = new Set<string>();
    for (const vm of plan.vms) {
      if (!vm.concrete || vm.origin !== 'static' || seen.has(vm.pool)) continue;
      seen.add(vm.pool);
      cases.push({ file: file.name, vm, model });
    }
  }
  let dir: string;

  beforeAll(async () => {
    dir = path.join(copyTerraformTree(fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-parity-'))), 'node-templates', 'kubevirt');
    expectOk('init', await tofu(dir, ['init', '-backend=false', '-input=false', '-no-color']));
  });

  afterAll(() => {
    if (dir) fs.rmSync(path.dirname(path.dirname(dir)), { recursive: true, force: true });
  });

  it('covers static nodes of at least 15 suite files', () => {
    process.stdout.write(`node template parity: ${cases.length} static pools from ${new Set(cases.map((c) => c.file)).size} vcluster.yaml files\n`);
    expect(new Set(cases.map((c) => c.file)).size).toBeGreaterThanOrEqual(15);
    // ...among them a pool the plan confines to a host group (its label in the nodeSelector, which the claim
    // passes as metalslice.io/host-group), devices, and every root disk source the properties can name.
    const rendered = JSON.stringify(cases.map(({ vm }) => renderVirtualMachine(vm, { userDataSecret: 'x' })));
    for (const part of [
      '"sourceRef":{"kind":"DataSource","name":"ubuntu-2404","namespace":"os-images"}',
      '"http":{"url":"https://',
      '"registry":{"url":"docker://quay.io/containerdisks/debian:12"}',
      '"gpus":[',
      '"nodeSelector":{"group.metalslice.io/',
    ]) {
      expect(rendered).toContain(part);
    }
  });

  it.each(cases.map((c) => [`${c.file} ${c.vm.pool}`, c] as const))('%s', async (_name, { vm, model }) => {
    const claim = path.join(dir, `${vm.name}.tfvars.json`);
    fs.writeFileSync(claim, JSON.stringify(claimFor(vm, model)));
    const vars = nodeTemplateVars(planModel(model), model, providerOf(vm, model));
    if (!vars.ok) throw new Error(JSON.stringify(vars.errors));
    const types = path.join(dir, `${vm.name}.vm-types.tfvars.json`);
    fs.writeFileSync(types, JSON.stringify(vars.vars));
    const fleet = (model.fleets ?? []).find((f) => f.name === vm.fleet);
    const ours = renderVirtualMachine(vm, { userDataSecret: `${vm.name}-cloudinit`, hostSelector: fleet?.hostSelector });
    const template = await templateVm(dir, [claim, types]);
    expect(template).toEqual(ours);
  });
});

describe('the fourth road: the node template writes the same VM for every vm option and fleet overcommit', () => {
  const plan = roadsPlan();
  const model = roadsModel();
  let dir: string;

  beforeAll(async () => {
    dir = path.join(copyTerraformTree(fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-roads-'))), 'node-templates', 'kubevirt');
    expectOk('init', await tofu(dir, ['init', '-backend=false', '-input=false', '-no-color']));
    // As a provider team would: the vars file beside the template, loaded by OpenTofu on every run.
    fs.writeFileSync(path.join(dir, 'vm-types.auto.tfvars.json'), JSON.stringify(templateVars(plan)));
  });

  afterAll(() => {
    if (dir) fs.rmSync(path.dirname(path.dirname(dir)), { recursive: true, force: true });
  });

  it.each(roadSpecs(plan).map((r) => [r.type, r] as const))('%s', async (type, r) => {
    const vm = plan.vms.find((v) => v.pool === `prod-static-${type}` || v.pool === `static-${type}`)!;
    const claim = path.join(dir, `${vm.name}.tfvars.json`);
    fs.writeFileSync(claim, JSON.stringify(claimFor(vm, model)));
    const template = await templateVm(dir, [claim]);
    // The whole object equals the constructs' VM for the same claim...
    expect(template).toEqual(r.static);
    // ...and, the claim's fields set aside, the elastic pool's and the Cluster API template's, byte for byte.
    const staticName = (r.static.metadata as { name: string }).name;
    const expected = JSON.stringify(claimFree(r.elastic, (r.elastic.metadata as { name: string }).name));
    expect(JSON.stringify(claimFree(sortedLike(template, r.static), staticName))).toBe(expected);
    expect(JSON.stringify(claimFree(r.clusterApi))).toBe(expected);
  });
});

describe('the node template confines a grouped pool to its hosts as the constructs do', () => {
  let dir: string;

  beforeAll(async () => {
    dir = path.join(copyTerraformTree(fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-group-'))), 'node-templates', 'kubevirt');
    expectOk('init', await tofu(dir, ['init', '-backend=false', '-input=false', '-no-color']));
  });

  afterAll(() => {
    if (dir) fs.rmSync(path.dirname(path.dirname(dir)), { recursive: true, force: true });
  });

  it('a host group, a pin, and the plain spread each render the same placement on both roads', async () => {
    const plan = roadsPlan();
    const model = roadsModel();
    fs.writeFileSync(path.join(dir, 'vm-types.auto.tfvars.json'), JSON.stringify(templateVars(plan)));
    const base = plan.vms.find((v) => v.pool === 'prod-static-plain' || v.pool === 'static-plain')!;
    const label = hostGroupLabel(base.cluster, base.pool, 'auto');
    const group = { hosts: ['bm-02', 'bm-04'], label, size: 2, perHost: 1, migrationTargets: 1, wholeDrain: false };
    const grouped: PlannedVm = { ...base, hostGroup: group };
    const pinned: PlannedVm = { ...pinVm(base, 'test'), host: 'bm-03' };
    type Spec = RenderedVm['spec']['template']['spec'];
    const specs = new Map<PlannedVm, { ours: Spec; template: Spec }>();
    for (const vm of [grouped, pinned, base]) {
      const claim = path.join(dir, `${vm.name}-${vm.hostGroup ? 'grouped' : vm.placement}.tfvars.json`);
      fs.writeFileSync(claim, JSON.stringify(claimFor(vm, model)));
      const ours = renderVirtualMachine(vm, { userDataSecret: `${vm.name}-cloudinit`, hostSelector: { 'metalslice.io/fleet': 'fra1' } });
      const template = await templateVm(dir, [claim]);
      expect(template).toEqual(ours);
      specs.set(vm, { ours: (ours as unknown as RenderedVm).spec.template.spec, template: (template as RenderedVm).spec.template.spec });
    }
    // The group really is in both objects: its label beside the fleet's in the nodeSelector, the spread, and no
    // affinity (no host names); the pin is a required affinity on its host, the plain spread has neither.
    for (const spec of Object.values(specs.get(grouped)!)) {
      expect(spec.nodeSelector).toEqual({ 'metalslice.io/fleet': 'fra1', [label]: 'true' });
      expect(spec.affinity).toBeUndefined();
      expect(JSON.stringify(spec)).not.toContain('bm-02');
      expect(spec.topologySpreadConstraints).toHaveLength(1);
    }
    for (const spec of Object.values(specs.get(pinned)!)) {
      expect(spec.nodeSelector).toEqual({ 'metalslice.io/fleet': 'fra1' });
      expect(JSON.stringify(spec.affinity)).toContain('"values":["bm-03"]');
      expect(spec.topologySpreadConstraints).toBeUndefined();
    }
    for (const spec of Object.values(specs.get(base)!)) {
      expect(spec.nodeSelector).toEqual({ 'metalslice.io/fleet': 'fra1' });
      expect(spec.affinity).toBeUndefined();
    }
  });
});

/** `b`'s key order on `a`'s values (OpenTofu prints object keys sorted): equal objects then print the same bytes. */
function sortedLike(a: unknown, b: unknown): unknown {
  if (Array.isArray(a) && Array.isArray(b)) return a.map((x, i) => sortedLike(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    return Object.fromEntries(
      [...Object.keys(bo).filter((k) => k in ao), ...Object.keys(ao).filter((k) => !(k in bo))].map((k) => [k, sortedLike(ao[k], bo[k])]),
    );
  }
  return a;
}
