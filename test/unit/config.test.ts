import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadConfigFile, parseConfigText, pointerToPath } from '../../constructs/core/config';
import { MetalsliceError } from '../../constructs/core/errors';
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
  it('turns JSON pointers into config paths', () => {
    expect(pointerToPath('/quotas/1/limits/memory')).toBe('quotas[1].limits.memory');
    expect(pointerToPath('/quotas/0/limits/nvidia.com~1gpu')).toBe('quotas[0].limits["nvidia.com/gpu"]');
  });

  it('names unknown fields and says to remove them', () => {
    expect(issuesOf('fleets:\n  - name: a\n    hostz: []\n')).toEqual([{ path: 'fleets[0].hostz', message: 'unknown field "hostz": remove it or check its spelling' }]);
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

  it('plans a tenant\'s vcluster.yaml privateNodes.autoNodes block as it is', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-vcluster-'));
    const example = fs.readFileSync(path.join(__dirname, '..', '..', 'examples', 'metalslice.yaml'), 'utf8').replace('hostsFile: inventory/fra1.json', `hostsFile: ${path.join(__dirname, '..', '..', 'examples', 'inventory', 'fra1.json')}`);
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
    fs.writeFileSync(path.join(dir, 'team-a.vcluster.yaml'), 'privateNodes:\n  enabled: true\n  autoNodes:\n    - provider: virt\n      static:\n        - {name: huge, quantity: 500}\n');
    const over = planModel(loadConfigFile(path.join(dir, 'c.yaml')));
    expect(over.errors.map((e) => e.path)).toContain('team-a.vcluster.yaml.privateNodes.autoNodes[0].static[0].quantity');
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
      expect((e as MetalsliceError).issues).toEqual([{ path: 'fleets[1].hostsFile', message: expect.stringMatching(/cannot read hosts file .*gone\.json \(ENOENT\).*metalslice inventory/) }]);
    }
    fs.writeFileSync(path.join(dir, 'c.yaml'), 'fleets:\n  - {name: a, hostsFile: inv.json}\n');
    expect(loadConfigFile(path.join(dir, 'c.yaml')).fleets![0].hosts![0].name).toBe('h1');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
