// The deploy bench's judgement of a +1 plan (bench/plus-one.ts), on resource_changes as `tofu show -json` prints
// them for a pool stack's node and for the fleet stack's Node labels.
import { describe, expect, it } from '@jest/globals';
import { judgePlusOne, ResourceChange } from '../../bench/plus-one';

const grown = 'group.metalslice.io/prod.pp10000-p000';
const other = 'group.metalslice.io/prod.pp10000-p125';

/** A `kubernetes_labels` instance of one Node, as the fleet stack writes it. */
const labelsOf = (host: string, labels: Record<string, string>) => ({
  api_version: 'v1',
  kind: 'Node',
  metadata: [{ name: host, namespace: null }],
  labels,
  field_manager: 'metalslice/provider/fra1',
  force: true,
  id: `apiVersion=v1,kind=Node,name=${host}`,
});
const change = (address: string, type: string, actions: string[], before: object | null, after: object | null): ResourceChange => ({
  address,
  type,
  change: { actions, before: before as ResourceChange['change']['before'], after: after as ResourceChange['change']['after'] },
});
const nodeCreates = [
  change('kubectl_manifest.nodes_vm_CD12["pp10000-p000-50"]', 'kubectl_manifest', ['create'], null, { yaml_body: '...' }),
  change('random_password.nodes_TokenSecret["pp10000-p000-50"]', 'random_password', ['create'], null, { length: 16 }),
  change(
    'kubernetes_labels.fleet_Resource["bm-0001"]',
    'kubernetes_labels',
    ['no-op'],
    labelsOf('bm-0001', { [other]: 'true' }),
    labelsOf('bm-0001', { [other]: 'true' }),
  ),
];
const label = (host: string, before: Record<string, string> | null, after: Record<string, string>, actions = before ? ['update'] : ['create']) =>
  change(`kubernetes_labels.fleet_Resource["${host}"]`, 'kubernetes_labels', actions, before && labelsOf(host, before), labelsOf(host, after));

describe('a +1 plan judged', () => {
  it("takes the node's creates and the grown pool's label on one more host, in place or new", () => {
    const judged = judgePlusOne(
      [...nodeCreates, label('bm-0391', { [other]: 'true' }, { [other]: 'true', [grown]: 'true' }), label('bm-0999', null, { [grown]: 'true' })],
      grown,
    );
    expect(judged).toEqual({ unexpected: [], labelled: 2, labelCreates: 1 });
  });

  it("refuses another pool's label moving, the grown pool's label leaving a host, and a label instance holding more", () => {
    const judged = judgePlusOne(
      [
        ...nodeCreates,
        label('bm-0153', {}, { [other]: 'true' }),
        label('bm-0051', { [grown]: 'true' }, {}),
        label('bm-0052', { [other]: 'true' }, {}, ['delete']),
        label('bm-0998', null, { [grown]: 'true', [other]: 'true' }),
      ],
      grown,
    );
    expect(judged.unexpected).toEqual([
      'kubernetes_labels.fleet_Resource["bm-0153"] (update)',
      'kubernetes_labels.fleet_Resource["bm-0051"] (update)',
      'kubernetes_labels.fleet_Resource["bm-0052"] (delete)',
      'kubernetes_labels.fleet_Resource["bm-0998"] (create)',
    ]);
    expect(judged.labelled).toBe(0);
  });

  it('refuses a label update that changes anything else of the instance, and any change to a VM or token', () => {
    const managerChanged = label('bm-0391', {}, { [grown]: 'true' });
    (managerChanged.change.after as Record<string, unknown>).field_manager = 'someone-else';
    const vmUpdate = change('kubectl_manifest.nodes_vm_CD12["pp10000-p000-0"]', 'kubectl_manifest', ['update'], { yaml_body: 'a' }, { yaml_body: 'b' });
    const tokenReplaced = change(
      'random_password.nodes_TokenSecret["pp10000-p000-0"]',
      'random_password',
      ['delete', 'create'],
      { length: 16 },
      { length: 16 },
    );
    expect(judgePlusOne([managerChanged, vmUpdate, tokenReplaced], grown).unexpected).toEqual([
      'kubernetes_labels.fleet_Resource["bm-0391"] (update)',
      'kubectl_manifest.nodes_vm_CD12["pp10000-p000-0"] (update)',
      'random_password.nodes_TokenSecret["pp10000-p000-0"] (delete,create)',
    ]);
  });
});
