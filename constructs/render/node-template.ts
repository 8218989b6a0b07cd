/**
 * The data the kubevirt node template (node-templates/kubevirt, run by vCluster Platform once per node claim)
 * renders its VM from. The HCL computes nothing about a VM: per node type, and per planned auto-node pool of
 * the provider, it receives the spec the one renderer (`renderVmSpec`) writes, and adds only what a claim
 * brings (the name, labels, the user data, a host pin or the spread). Written as `vm-types.auto.tfvars.json`
 * beside the template by `metalslice node-template-vars`, so OpenTofu loads it on every run.
 */
import { childPath, PlanIssue } from '../core/base/errors';
import { describeValue } from '../core/base/excerpt';
import { MetalsliceConfig } from '../core/input/model';
import { NodeType } from '../core/auto/node-types';
import { Plan } from '../core/plan';
import { typeVm } from '../core/auto';
import { effectiveProperties, kubevirtProperties } from '../core/vm/properties';
import { pinnedEvictionStrategy } from '../core/vm/vm';
import { renderVmSpec, VmSpec, VmTypeInput } from './kubevirt';

/** One VM as the node template receives it. */
export interface NodeTemplateVm {
  /** The VirtualMachine spec with no claim in it (renderVmSpec). */
  readonly spec: VmSpec;
  /** The evictionStrategy when the claim pins the VM to one host (it can no longer live-migrate). */
  readonly pinnedEvictionStrategy: 'External' | 'None';
}

/** The node template's variables: VMs by node type name, and by pool label for the plan's auto-node pools. */
export interface NodeTemplateVars {
  /** Per node type of the provider, with the provider's and the type's properties. */
  readonly vm_types: Record<string, NodeTemplateVm>;
  /** Per planned auto-node pool on the provider (its `metalslice.io/pool` label), with its claim properties too. */
  readonly vm_pools: Record<string, NodeTemplateVm>;
}

/** The node template's variables for one kubevirt provider, or the problems that stop them. */
export type NodeTemplateVarsResult = { readonly ok: true; readonly vars: NodeTemplateVars } | { readonly ok: false; readonly errors: readonly PlanIssue[] };

/** Code-unit order, so the file is the same bytes whatever the locale. */
function byKey(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function templateVm(vm: VmTypeInput): NodeTemplateVm {
  return { spec: renderVmSpec(vm), pinnedEvictionStrategy: pinnedEvictionStrategy(vm.options) };
}

/** The type's VM with its provider's and its own properties (a claim's are the pool entries'). */
function typeEntry(plan: Plan, model: MetalsliceConfig, providerIndex: number, type: NodeType, problems: PlanIssue[]): NodeTemplateVm | undefined {
  const provider = plan.nodeProviders[providerIndex];
  const spec = (model.nodeProviders ?? []).find((p) => p.name === provider.name);
  const fleet = plan.fleets.find((f) => f.name === provider.fleet);
  if (!spec || !fleet) return undefined;
  const typeSpec = spec.nodeTypes.find((t) => t.name === type.name);
  const effective = effectiveProperties([
    { properties: spec.properties, path: childPath(provider.path, 'properties') },
    { properties: typeSpec?.properties, path: childPath(type.path, 'properties') },
  ]);
  const props = kubevirtProperties(effective, type.path, problems, []);
  const vm = typeVm(type, fleet.kubevirt, props, problems);
  return vm ? templateVm({ ...vm, hostSelector: fleet.spec.hostSelector }) : undefined;
}

/**
 * What node-templates/kubevirt needs to render every VM of a kubevirt provider exactly as the constructs do.
 * Only a plan without errors is rendered; a type KubeVirt would refuse is an error at its path.
 */
export function nodeTemplateVars(plan: Plan, model: MetalsliceConfig, providerName: string): NodeTemplateVarsResult {
  if (!plan.ok) return { ok: false, errors: plan.errors };
  const index = plan.nodeProviders.findIndex((p) => p.name === providerName);
  const provider = plan.nodeProviders[index];
  if (!provider || provider.kind !== 'kubevirt') {
    const kubevirt = plan.nodeProviders.filter((p) => p.kind === 'kubevirt').map((p) => p.name);
    return {
      ok: false,
      errors: [
        {
          path: '--provider',
          message: `no kubevirt node provider is named ${describeValue(providerName)}: use one of ${kubevirt.join(', ') || '(none in this config)'}`,
        },
      ],
    };
  }
  const problems: PlanIssue[] = [];
  const vmTypes: Record<string, NodeTemplateVm> = {};
  for (const type of [...provider.types].sort((a, b) => byKey(a.name, b.name))) {
    const entry = typeEntry(plan, model, index, type, problems);
    if (entry) vmTypes[type.name] = entry;
  }
  const vmPools: Record<string, NodeTemplateVm> = {};
  const fleet = plan.fleets.find((f) => f.name === provider.fleet);
  for (const pool of plan.autoPools.filter((p) => p.provider === providerName)) {
    const vm = pool.vms?.[0];
    if (vm) vmPools[vm.pool] = templateVm({ ...vm, hostSelector: fleet?.spec.hostSelector });
  }
  if (problems.length > 0) return { ok: false, errors: problems };
  return { ok: true, vars: { vm_types: vmTypes, vm_pools: Object.fromEntries(Object.entries(vmPools).sort(([a], [b]) => byKey(a, b))) } };
}
