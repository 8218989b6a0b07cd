/**
 * vcluster.yaml conformance: for every file of test/conformance/vcluster, metalslice's reader must reach
 * vCluster's own verdict (test/golden/vcluster-conformance.json: vCluster v0.36.1's chart schema, strict
 * decoder and validation, run by test/oracles/vcluster-config; the e2e suite checks the golden is current),
 * read the same pools vCluster reads, plan them against the suite's catalogue, and synthesize them.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { AutoNodesSpec, MetalsliceConfig } from '../../constructs/core/input/model';
import { planModel } from '../../constructs/core/plan';
import { corpusCatalogue, corpusFiles, corpusModel, importCorpusFile, vclusterVerdicts, VclusterEntry, VclusterVerdict } from '../support/vcluster-corpus';
import { synthConfigObjects } from '../support/stack-objects';

/**
 * Files vCluster accepts that metalslice's planning rules refuse on purpose, with the reason each must give.
 * Anything else vCluster accepts must plan.
 */
const PLANNING_REFUSES: Readonly<Record<string, RegExp>> = {
  // The docs' selector example: In and NotIn of the same values can match no node type.
  '003-docs-node-type-selector-valid-operators.yaml': /no node type of provider my-provider matches pool my-static-pool/,
  // Taint effects: vCluster's schema and rules take any string; the kubelet takes three.
  '061-taint-effect-unknown.yaml': /taint effect "Never" is not valid: use NoSchedule, PreferNoSchedule, NoExecute/,
  // An OSImage only vCluster Platform knows: HostClaims need its URL and checksum, and the error names them.
  '090-metal3-os-image-in-platform.yaml':
    /static pool general on metal3 provider metal3: OSImage "rhel-9-gold" is not in this config .* needs its metal3.vcluster.com\/image-url and metal3.vcluster.com\/image-checksum/,
  // The quota holds fewer nodes than the pool asks for.
  '071-too-many-nodes.yaml': /static pool "huge" \(my-node-provider.large\) does not fit quota "tenant-quota" \(cpu: needs 4002.5 \(500 x 8.005/,
  // The kubelet refuses to join with a label under node-role.kubernetes.io.
  '072-kubelet-refused-label.yaml': /the kubelet refuses to join with labels under node-role.kubernetes.io/,
  // Pool names name VMs and nodes: DNS-1123 labels.
  '073-pool-name-not-dns.yaml': /pool name "My_Pool" is not a DNS-1123 label/,
};

const files = corpusFiles();
const verdicts = files.length > 0 ? vclusterVerdicts() : new Map<string, VclusterVerdict>();
const catalogue: MetalsliceConfig = files.length > 0 ? corpusCatalogue() : {};

const acceptedByVcluster = (v: VclusterVerdict) => v.ok && (v.schemaErrors ?? []).length === 0;

const imported = (file: { name: string; text: string }) => importCorpusFile(file, catalogue);

/** What vCluster read, in the shape metalslice compares: provider, then each pool's name (and static quantity). */
function vclusterPools(entries: readonly VclusterEntry[] | null | undefined): string[] {
  return (entries ?? []).flatMap((e) => [
    ...(e.static ?? []).map((p) => `${e.provider}/static/${p.name}x${p.quantity}`),
    ...(e.dynamic ?? []).map((p) => `${e.provider}/dynamic/${p.name}`),
  ]);
}

function metalslicePools(entries: readonly AutoNodesSpec[]): string[] {
  return entries.flatMap((e) => [
    ...(e.static ?? []).map((p) => `${e.provider}/static/${p.name}x${p.quantity}`),
    ...(e.dynamic ?? []).map((p) => `${e.provider}/dynamic/${p.name}`),
  ]);
}

const modelOf = (file: { name: string; text: string }) => corpusModel(file, catalogue);

const describeCorpus = files.length > 0 ? describe : describe.skip;

describeCorpus('vcluster.yaml conformance (vCluster v0.36.1 decides)', () => {
  afterAll(() => {
    const accepted = files.filter((f) => acceptedByVcluster(verdicts.get(f.name)!)).length;
    const agree = files.filter((f) => acceptedByVcluster(verdicts.get(f.name)!) === (imported(f).issues.length === 0)).length;
    process.stdout.write(
      `vcluster.yaml conformance: ${files.length} files, vCluster accepts ${accepted} and refuses ${files.length - accepted}; metalslice agrees on ${agree} of ${files.length}\n`,
    );
  });

  it("holds at least 60 files, each with its source and a verdict from vCluster's own code", () => {
    expect(files.length).toBeGreaterThanOrEqual(60);
    for (const f of files) {
      expect({ file: f.name, source: f.source !== '' }).toEqual({ file: f.name, source: true });
      expect({ file: f.name, verdict: verdicts.has(f.name) }).toEqual({ file: f.name, verdict: true });
    }
  });

  it.each(files.map((f) => [f.name, f] as const))("%s: metalslice reaches vCluster's verdict", (_name, file) => {
    const verdict = verdicts.get(file.name)!;
    const read = imported(file);
    const vcluster = acceptedByVcluster(verdict) ? 'accepts' : `refuses (${verdict.error ?? verdict.schemaErrors?.join('; ')})`;
    const ours = read.issues.length === 0 ? 'accepts' : `refuses (${read.issues.map((i) => `${i.path}: ${i.message}`).join('; ')})`;
    expect({ file: file.name, verdict: ours.startsWith('accepts') ? 'accepts' : 'refuses', ours }).toEqual({
      file: file.name,
      verdict: vcluster.startsWith('accepts') ? 'accepts' : 'refuses',
      ours: expect.any(String),
    });
    // A refusal names a place in the file.
    for (const issue of read.issues) expect(issue.path.startsWith(file.name)).toBe(true);
    if (acceptedByVcluster(verdict)) {
      // The same pools vCluster reads, when it reads them (privateNodes.enabled), and none otherwise.
      expect(metalslicePools(read.autoNodes)).toEqual(verdict.enabled ? vclusterPools(verdict.autoNodes) : []);
    }
  });

  const accepted = files.filter((f) => acceptedByVcluster(verdicts.get(f.name) ?? { name: f.name, ok: false }));

  it.each(accepted.map((f) => [f.name, f] as const))('%s: plans against the catalogue, or is refused for its stated reason', (_name, file) => {
    const plan = planModel(modelOf(file));
    const refusal = PLANNING_REFUSES[file.name];
    if (refusal) {
      expect(plan.errors.map((e) => e.message).join('\n')).toMatch(refusal);
      return;
    }
    expect({ file: file.name, errors: plan.errors }).toEqual({ file: file.name, errors: [] });
  });

  const planned = accepted.filter((f) => PLANNING_REFUSES[f.name] === undefined);

  it.each(planned.map((f) => [f.name, f] as const))(
    '%s: synthesizes, one VM per static kubevirt node, one HostClaim per static metal3 node and one NodePool per Karpenter pool',
    (_name, file) => {
      const model = modelOf(file);
      const plan = planModel(model);
      const manifests = synthConfigObjects(model);
      // VMs vCluster Platform makes by running metalslice's kubevirt template are counted, not rendered.
      const staticVms = plan.vms
        .filter((v) => v.concrete && v.origin === 'static' && !v.madeByNodeTemplate)
        .map((v) => v.name)
        .sort();
      const hostNodes = plan.privatePools.flatMap((p) => p.pool.nodes.map((n) => n.name)).sort();
      const karpenterPools = plan.report.pools.filter((p) => p.kind === 'dynamic').map((p) => p.name);
      const elastic = (catalogue.nodePools ?? []).reduce((n, p) => n + p.count, 0);
      expect(manifests.filter((m) => m.kind === 'VirtualMachine')).toHaveLength(staticVms.length + elastic);
      for (const name of staticVms) expect(manifests.some((m) => m.kind === 'VirtualMachine' && m.metadata.name === name)).toBe(true);
      expect(manifests.filter((m) => m.kind === 'NodePool')).toHaveLength(karpenterPools.length);
      expect(
        manifests
          .filter((m) => m.kind === 'HostClaim')
          .map((m) => m.metadata.name)
          .sort(),
      ).toEqual(hostNodes);
    },
  );
});
