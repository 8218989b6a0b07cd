import { describe, expect, it } from '@jest/globals';
import { chooseNodeMix, chooseNodeMixSync, NodeMix, NodeMixError, NodeType, PodDemand } from '../../constructs/core/auto/node-mix';

// Dimensions: CPU in millicores, memory in MiB.
const Gi = 1024;
const overhead = [500, 2 * Gi];
const catalogue: NodeType[] = [
  { name: 'c4', capacity: [4000, 8 * Gi], cost: 0.17, overhead },
  { name: 'm8', capacity: [8000, 32 * Gi], cost: 0.38, overhead },
  { name: 'm16', capacity: [16000, 64 * Gi], cost: 0.77, overhead },
  { name: 'm32', capacity: [32000, 128 * Gi], cost: 1.54, overhead },
  { name: 'c32', capacity: [32000, 64 * Gi], cost: 1.2, overhead },
];
// 40 pods of 2 CPU / 4 GiB and 3 of 16 CPU / 64 GiB.
const demand: PodDemand[] = [
  { size: [2000, 4 * Gi], count: 40 },
  { size: [16000, 64 * Gi], count: 3 },
];

/** The mix is feasible: its assignment runs every pod exactly once, within every node's capacity net of overhead. */
function expectFeasible(mix: NodeMix, pods: readonly PodDemand[], types: readonly NodeType[]): void {
  const assignment = mix.assignment ?? [];
  const placed = pods.map(() => 0);
  for (const node of assignment) {
    const type = types.find((t) => t.name === node.type);
    expect(type).toBeDefined();
    const usable = type!.capacity.map((c, k) => c - (type!.overhead?.[k] ?? 0));
    const load = usable.map((_, k) => node.pods.reduce((sum, count, j) => sum + count * pods[j].size[k], 0));
    load.forEach((l, k) => expect(l).toBeLessThanOrEqual(usable[k]));
    node.pods.forEach((count, j) => (placed[j] += count));
  }
  expect(placed).toEqual(pods.map((p) => p.count));
  // The node counts describe the same nodes as the assignment, and the cost is their price.
  const counted = Object.fromEntries(mix.nodes.map((n) => [n.type, n.count]));
  const fromAssignment: Record<string, number> = {};
  for (const node of assignment) fromAssignment[node.type] = (fromAssignment[node.type] ?? 0) + 1;
  expect(fromAssignment).toEqual(counted);
  const price = mix.nodes.reduce((sum, n) => sum + n.count * types.find((t) => t.name === n.type)!.cost, 0);
  expect(mix.cost).toBeCloseTo(price, 9);
  expect(mix.cost).toBeGreaterThanOrEqual(mix.lowerBound - 1e-9);
}

describe('chooseNodeMix', () => {
  it('finds the cheapest mix for 40 small and 3 large pods, proves it, and every pod has a node', async () => {
    const mix = await chooseNodeMix(demand, catalogue, { timeLimitMs: 5000 });
    expectFeasible(mix, demand, catalogue);
    // Each large pod needs an m32 (only type with 64 GiB free after overhead), whose leftovers take
    // 7 small pods each; the other 19 small pods go on a c32 (15), an m8 (3) and a c4 (1).
    expect(mix.nodes).toEqual([
      { type: 'c4', count: 1 },
      { type: 'm8', count: 1 },
      { type: 'm32', count: 3 },
      { type: 'c32', count: 1 },
    ]);
    expect(mix.cost).toBeCloseTo(6.37, 9);
    expect(mix.optimal).toBe(true);
    expect(mix.lowerBound).toBeCloseTo(6.37, 9);
  });

  it('does not simply take the type that is cheapest per unit of capacity', async () => {
    // "big" costs 10/64 = 0.156 per CPU, "small" 1.5/8 = 0.1875; yet two 5-CPU pods are cheaper on two smalls.
    const types: NodeType[] = [
      { name: 'big', capacity: [64000], cost: 10 },
      { name: 'small', capacity: [8000], cost: 1.5 },
    ];
    const pods = [{ size: [5000], count: 2 }];
    const mix = await chooseNodeMix(pods, types);
    expectFeasible(mix, pods, types);
    expect(mix.nodes).toEqual([{ type: 'small', count: 2 }]);
    expect(mix.cost).toBe(3);
    expect(mix.optimal).toBe(true);
    expect(chooseNodeMixSync(pods, types).nodes).toEqual([{ type: 'small', count: 2 }]);
  });

  it('respects the max count of a type', async () => {
    const types: NodeType[] = [
      { name: 'cheap', capacity: [10], cost: 1, max: 2 },
      { name: 'dear', capacity: [10], cost: 3 },
    ];
    const pods = [{ size: [6], count: 4 }];
    const mix = await chooseNodeMix(pods, types);
    expectFeasible(mix, pods, types);
    expect(mix.nodes).toEqual([
      { type: 'cheap', count: 2 },
      { type: 'dear', count: 2 },
    ]);
  });

  it('returns no nodes for no pods', async () => {
    const mix = await chooseNodeMix(
      [{ size: [1, 1], count: 0 }],
      catalogue.map((t) => ({ ...t, capacity: [4, 4], overhead: undefined })),
    );
    expect(mix).toMatchObject({ nodes: [], cost: 0, lowerBound: 0, optimal: true });
  });

  it('rejects a pod that fits no node type after overhead, naming it', async () => {
    await expect(chooseNodeMix([...demand, { size: [40000, 1], count: 1 }], catalogue)).rejects.toThrow(NodeMixError);
    await expect(chooseNodeMix([...demand, { size: [40000, 1], count: 1 }], catalogue)).rejects.toThrow(/demand 2 .* fits no node type/);
  });

  it('rejects demand that the max counts cannot hold', async () => {
    const limited = catalogue.map((t) => (t.name === 'm32' ? { ...t, max: 2 } : t));
    await expect(chooseNodeMix(demand, limited)).rejects.toThrow(NodeMixError);
  });
});

describe('chooseNodeMixSync', () => {
  it('finds a feasible mix close to the optimum, with a valid lower bound', () => {
    const mix = chooseNodeMixSync(demand, catalogue);
    expectFeasible(mix, demand, catalogue);
    expect(mix.lowerBound).toBeLessThanOrEqual(6.37 + 1e-9);
    expect(mix.cost).toBeLessThanOrEqual(6.37 * 1.05);
  });

  it('is deterministic', () => {
    expect(chooseNodeMixSync(demand, catalogue)).toEqual(chooseNodeMixSync(demand, catalogue));
  });
});
