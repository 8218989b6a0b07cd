import { describe, expect, it } from '@jest/globals';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadConfigFile, parseConfigText } from '../../constructs/core/input/config';
import { pointerToPath } from '../../constructs/core/input/config-schema';
import { MetalsliceError } from '../../constructs/core/base/errors';
import { planModel } from '../../constructs/core/plan';

function issuesOf(text: string) {
  try {
    parseConfigText(text, 'config.yaml');
  } catch (e) {
    if (e instanceof MetalsliceError) return e.issues;
    throw e;
  }
  return [];
}

describe('config', () => {
  it('refuses an empty config instead of planning nothing with exit 0', () => {
    for (const text of ['', '# nothing\n', '{}', 'null'])
      expect(issuesOf(text)).toEqual([{ path: '(config)', message: expect.stringContaining('the config is empty') }]);
  });

  it('refuses sizes without a unit that cannot be meant as bytes, suggesting the unit', () => {
    const at = (limits: string) =>
      planModel(
        parseConfigText(
          `fleets: [{name: f, hosts: [{name: h, capacity: {cpu: 9, memory: 65Gi, disk: 2Ti}}]}]\nquotas: [{name: q, fleet: f, organization: o, limits: ${limits}}]\n`,
          'c.yaml',
        ),
      ).errors;
    expect(at('{cpu: 4, memory: 8Gi, disk: 100}')).toEqual([
      { path: 'quotas[0].limits.disk', message: 'disk 100 has no unit, so it means 100 bytes: write it with a unit, e.g. 100Gi or 100Mi' },
    ]);
    expect(at('{cpu: 4, memory: 2000000000000000000000}')).toEqual([
      { path: 'quotas[0].limits.memory', message: expect.stringContaining('more than any machine holds') },
    ]);
    // Exact byte counts (as an inventory writes them) and quantities with units are fine.
    expect(at('{cpu: 4, memory: 68719476736}')).toEqual([]);
    expect(at('{cpu: 4, memory: 64Gi, disk: 1Ti}')).toEqual([]);
  });

  it('turns JSON pointers into config paths', () => {
    expect(pointerToPath('/quotas/1/limits/memory')).toBe('quotas[1].limits.memory');
    expect(pointerToPath('/quotas/0/limits/nvidia.com~1gpu')).toBe('quotas[0].limits["nvidia.com/gpu"]');
  });

  it('names unknown fields, with the field a typo meant, and says to remove the others', () => {
    expect(issuesOf('fleets:\n  - name: a\n    hostz: []\n')).toEqual([{ path: 'fleets[0].hostz', message: 'unknown field "hostz": did you mean "hosts"?' }]);
    expect(issuesOf('fleets:\n  - name: a\n    colour: blue\n')).toEqual([
      { path: 'fleets[0].colour', message: 'unknown field "colour": remove it or check its spelling' },
    ]);
  });

  it('names missing required fields', () => {
    expect(issuesOf('quotas:\n  - {name: q, fleet: f, organization: o}\n')).toEqual([{ path: 'quotas[0].limits', message: 'missing required field "limits"' }]);
  });

  it('lists every structural problem, not only the first', () => {
    const issues = issuesOf('nodePools:\n  - {name: p, quota: q, cluster: c, shape: {cpu: 2}, count: -1, placement: anywhere}\n');
    expect(issues.map((i) => i.path).sort()).toEqual(['nodePools[0].count', 'nodePools[0].placement']);
    expect(issues.find((i) => i.path === 'nodePools[0].placement')!.message).toBe('must be one of "spread", "planned"');
  });

  it('reports YAML syntax errors with the line', () => {
    const issues = issuesOf('fleets:\n  - name: a\n   bad: [\n');
    expect(issues[0].path).toMatch(/^config\.yaml:\d+$/);
  });

  it('reports an alias to no anchor as a syntax problem, not a crash', () => {
    expect(issuesOf('fleets: *nowhere\n')).toEqual([{ path: 'config.yaml', message: expect.stringMatching(/fix the YAML\/JSON syntax/) }]);
  });

  it("plans a tenant's vcluster.yaml privateNodes.autoNodes block as it is", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-vcluster-'));
    const example = fs
      .readFileSync(path.join(__dirname, '..', '..', 'examples', 'metalslice.yaml'), 'utf8')
      .replace('hostsFile: inventory/fra1.json', `hostsFile: ${path.join(__dirname, '..', '..', 'examples', 'inventory', 'fra1.json')}`);
    fs.writeFileSync(path.join(dir, 'c.yaml'), `${example}vclusters:\n  - {cluster: team-a-prod, file: team-a.vcluster.yaml, quota: team-b}\n`);
    fs.writeFileSync(
      path.join(dir, 'team-a.vcluster.yaml'),
      'privateNodes:\n  enabled: true\n  autoNodes:\n    - provider: virt\n      static:\n        - name: gpu-less\n          quantity: 2\n          nodeTypeSelector: [{property: tier, operator: In, values: [b]}]\n',
    );
    const plan = planModel(loadConfigFile(path.join(dir, 'c.yaml')));
    expect(plan.errors).toEqual([]);
    const pool = plan.report.pools.find((p) => p.name === 'gpu-less')!;
    expect(pool).toMatchObject({ kind: 'static', nodeType: 'virt.small', quota: 'team-b' });
    expect(pool.nodes).toHaveLength(2);
    // Errors point into the vcluster.yaml.
    fs.writeFileSync(
      path.join(dir, 'team-a.vcluster.yaml'),
      'privateNodes:\n  enabled: true\n  autoNodes:\n    - provider: virt\n      static:\n        - {name: huge, quantity: 500}\n',
    );
    const over = planModel(loadConfigFile(path.join(dir, 'c.yaml')));
    expect(over.errors.map((e) => e.path)).toContain('team-a.vcluster.yaml.privateNodes.autoNodes[0].static[0].quantity');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("carries the vcluster.yaml reader's warnings into the plan, applies profiles, and asks a static metal3 pool for its image", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-vcluster-'));
    const example = fs
      .readFileSync(path.join(__dirname, '..', '..', 'examples', 'metalslice.yaml'), 'utf8')
      .replace('hostsFile: inventory/fra1.json', `hostsFile: ${path.join(__dirname, '..', '..', 'examples', 'inventory', 'fra1.json')}`);
    const profiles =
      'nodeProfiles:\n  - {name: standard, nodeLabels: {tier: standard, team: platform}, taints: [{key: dedicated, value: a, effect: NoSchedule}]}\n';
    fs.writeFileSync(path.join(dir, 'c.yaml'), `${example}${profiles}vclusters:\n  - {cluster: team-a-prod, file: t.yaml, quota: team-b}\n`);
    const vcluster = (pools: string) =>
      `privateNodes:\n  enabled: true\n  defaultProfile: standard\n  joinNode: {containerd: {enabled: true}}\n  autoNodes:\n${pools}`;
    fs.writeFileSync(
      path.join(dir, 't.yaml'),
      vcluster('    - provider: virt\n      static:\n        - {name: vbase, quantity: 1, nodeLabels: {team: payments}, terminationGracePeriod: 5m}\n'),
    );
    const plan = planModel(loadConfigFile(path.join(dir, 'c.yaml')));
    expect(plan.errors).toEqual([]);
    expect(plan.warnings.map((w) => w.path)).toEqual(
      expect.arrayContaining(['t.yaml.privateNodes.joinNode', 't.yaml.privateNodes.autoNodes[0].static[0].terminationGracePeriod']),
    );
    const vm = plan.vms.find((v) => v.pool === 'vbase')!;
    // The profile's labels and taints, the pool's own label winning.
    expect(vm.labels).toMatchObject({ tier: 'standard', team: 'payments' });
    expect(vm.taints).toEqual([{ key: 'dedicated', value: 'a', effect: 'NoSchedule' }]);
    // A profile the config does not define may be vCluster Platform's: a warning at the field that names it.
    fs.writeFileSync(path.join(dir, 't.yaml'), vcluster('    - provider: virt\n      static:\n        - {name: vbase, quantity: 1, profile: gpu}\n'));
    const unknownProfile = planModel(loadConfigFile(path.join(dir, 'c.yaml')));
    expect(unknownProfile.errors).toEqual([]);
    expect(unknownProfile.warnings).toContainEqual({
      path: 't.yaml.privateNodes.autoNodes[0].static[0].profile',
      message: expect.stringContaining('node profile "gpu" is not in nodeProfiles (known: standard)'),
    });
    // A static pool on a metal3 provider claims whole hosts: without an image in its properties it names where to set one.
    fs.writeFileSync(
      path.join(dir, 't.yaml'),
      vcluster(
        '    - provider: metal\n      static:\n        - {name: metal-base, quantity: 1, nodeTypeSelector: [{property: vcluster.com/node-type, value: gpu-node}]}\n',
      ),
    );
    expect(planModel(loadConfigFile(path.join(dir, 'c.yaml'))).errors).toContainEqual({
      path: 't.yaml.privateNodes.autoNodes[0].static[0]',
      message: expect.stringContaining('no OS image for its hosts, and a HostClaim needs one: set metal3.vcluster.com/image-url'),
    });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads JSON as well as YAML', () => {
    expect(parseConfigText('{"fleets": [{"name": "a", "hosts": []}]}', 'c.json').fleets![0].name).toBe('a');
  });

  it('inlines hostsFile relative to the config file, and names a missing one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-config-'));
    fs.writeFileSync(path.join(dir, 'inv.json'), JSON.stringify({ hosts: [{ name: 'h1', capacity: { cpu: 4, memory: '8Gi' } }] }));
    fs.writeFileSync(path.join(dir, 'c.yaml'), 'fleets:\n  - {name: a, hostsFile: inv.json}\n  - {name: b, hostsFile: gone.json}\n');
    try {
      loadConfigFile(path.join(dir, 'c.yaml'));
      throw new Error('expected an error');
    } catch (e) {
      expect(e).toBeInstanceOf(MetalsliceError);
      expect((e as MetalsliceError).issues).toEqual([
        {
          path: 'fleets[1].hostsFile',
          message: expect.stringMatching(/cannot read the hosts file .*gone\.json: no such file \(ENOENT\).*metalslice inventory/),
          file: path.join(dir, 'c.yaml'),
          line: 3,
          column: '  - {name: b, '.length + 1,
        },
      ]);
    }
    fs.writeFileSync(path.join(dir, 'c.yaml'), 'fleets:\n  - {name: a, hostsFile: inv.json}\n');
    expect(loadConfigFile(path.join(dir, 'c.yaml')).fleets![0].hosts![0].name).toBe('h1');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
