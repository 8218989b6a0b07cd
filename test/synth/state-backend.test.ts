import { describe, expect, it } from '@jest/globals';
import * as path from 'path';
import { App, S3Backend, TerraformStack, Testing } from 'cdktf';
import { KubernetesProvider } from '../../constructs/providers/kubernetes/provider';
import { RandomProvider } from '../../constructs/providers/random/provider';
import { addConfigStacks, MetalsliceConfig, MetalsliceError, planModel, StateBackend } from '../../constructs';
import { loadConfigFile } from '../../constructs/core/input/config';
import { kubernetesStateSecretName, stateKeyProblem } from '../../constructs/core/naming/state-keys';
import { REPO_ROOT } from '../support/models';

type Backends = Record<string, Record<string, unknown>>;

function setUpStack(stack: TerraformStack): void {
  new KubernetesProvider(stack, 'kubernetes', {});
  new RandomProvider(stack, 'random');
}

const example = (): MetalsliceConfig => loadConfigFile(path.join(REPO_ROOT, 'examples', 'metalslice.yaml'));

/** The config with one more elastic pool, named `name`, of one small node. */
function withPool(config: MetalsliceConfig, name: string): MetalsliceConfig {
  const pools = config.nodePools ?? [];
  return { ...config, nodePools: [...pools, { ...pools[0], name, count: 1 }] };
}

/** Stack name -> the `terraform.backend` block of its synthesized cdk.tf.json. */
function backendsOf(app: App): Map<string, Backends> {
  const out = new Map<string, Backends>();
  for (const stack of app.node.children.filter((c): c is TerraformStack => TerraformStack.isStack(c))) {
    const json = JSON.parse(Testing.synth(stack)) as { terraform: { backend: Backends } };
    out.set(stack.node.id, json.terraform.backend);
  }
  return out;
}

function splitWith(config: MetalsliceConfig, stateBackend: StateBackend): App {
  const app = Testing.app();
  addConfigStacks(app, config, { setUpStack, stateBackend });
  return app;
}

describe('StateBackend: one backend for every stack, a state key per stack', () => {
  const kube = () => StateBackend.kubernetes({ configPath: '~/.kube/provider.config' });

  it("gives each per-pool stack the kubernetes backend with its own secret_suffix, the stack's name", () => {
    const backends = backendsOf(splitWith(example(), kube()));
    expect([...backends.keys()].sort()).toEqual(['metalslice', 'metalslice-pool-team-a-highmem', 'metalslice-pool-team-a-workers']);
    for (const [stack, backend] of backends) {
      expect(backend).toEqual({ kubernetes: { namespace: 'metalslice-state', config_path: '~/.kube/provider.config', secret_suffix: stack } });
    }
    const suffixes = [...backends.values()].map((b) => b.kubernetes.secret_suffix);
    expect(new Set(suffixes).size).toBe(suffixes.length);
  });

  it("keeps every stack's key across synths and when a pool is added: only the new stack gets a new key", () => {
    const first = backendsOf(splitWith(example(), kube()));
    const again = backendsOf(splitWith(example(), kube()));
    expect(JSON.stringify([...again])).toBe(JSON.stringify([...first]));
    const grown = backendsOf(splitWith(withPool(example(), 'team-a-extra'), kube()));
    for (const [stack, backend] of first) expect(grown.get(stack)).toEqual(backend);
    expect([...grown.keys()].filter((s) => !first.has(s))).toEqual(['metalslice-pool-team-a-extra']);
    expect(grown.get('metalslice-pool-team-a-extra')?.kubernetes.secret_suffix).toBe('metalslice-pool-team-a-extra');
  });

  it("refuses, at the pool's config path, a pool whose stack name is too long for a secret_suffix, and makes no stack", () => {
    // "metalslice-pool-" is 16 characters: a 47-character pool name gives a 63-character suffix, 48 one too many.
    const fits = 'p'.repeat(47);
    expect(backendsOf(splitWith(withPool(example(), fits), kube())).get(`metalslice-pool-${fits}`)?.kubernetes.secret_suffix).toHaveLength(63);
    const tooLong = 'q'.repeat(48);
    const app = Testing.app();
    let error: unknown;
    try {
      addConfigStacks(app, withPool(example(), tooLong), { setUpStack, stateBackend: kube() });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MetalsliceError);
    const issues = (error as MetalsliceError).issues;
    expect(issues).toHaveLength(1);
    expect(issues[0].path).toBe('nodePools[2].name');
    expect(issues[0].message).toMatch(/secret_suffix .* is 64 characters long; at most 63 are allowed: .*tfstateSecretSuffix label; shorten or rename/);
    expect(app.node.children).toHaveLength(0);
  });

  it('keys S3 states by object key and pg states by schema, with no credential in the backend block', () => {
    const s3 = backendsOf(splitWith(example(), StateBackend.s3({ bucket: 'acme-tfstate', region: 'eu-central-1' })));
    for (const [stack, backend] of s3) {
      expect(backend).toEqual({
        s3: { bucket: 'acme-tfstate', region: 'eu-central-1', encrypt: true, use_lockfile: true, key: `metalslice/${stack}.tfstate` },
      });
    }
    const pg = backendsOf(splitWith(example(), StateBackend.pg({ keyPrefix: 'fra1_' })));
    for (const [stack, backend] of pg) expect(backend).toEqual({ pg: { schema_name: `fra1_${stack}` } });
  });

  it('addToEveryStack: every stack without a backend gets one; a stack with its own keeps it; every bad name reported at once', () => {
    const app = Testing.app();
    const provider = new TerraformStack(app, 'provider');
    const own = new TerraformStack(app, 'own');
    new S3Backend(own, { bucket: 'b', key: 'own.tfstate' });
    new TerraformStack(app, 'consumer');
    StateBackend.kubernetes({ keyPrefix: 'fra1-' }).addToEveryStack(app);
    const backends = backendsOf(app);
    expect(backends.get('provider')).toEqual({ kubernetes: { namespace: 'metalslice-state', secret_suffix: 'fra1-provider' } });
    expect(backends.get('consumer')).toEqual({ kubernetes: { namespace: 'metalslice-state', secret_suffix: 'fra1-consumer' } });
    expect(Object.keys(backends.get('own') ?? {})).toEqual(['s3']);
    expect(provider.node.tryFindChild('backend')).toBeDefined();

    const bad = Testing.app();
    new TerraformStack(bad, 'Provider');
    new TerraformStack(bad, 'team_b');
    new TerraformStack(bad, 'fine');
    let error: unknown;
    try {
      StateBackend.kubernetes().addToEveryStack(bad);
    } catch (e) {
      error = e;
    }
    expect((error as MetalsliceError).issues.map((i) => i.path)).toEqual(['Provider', 'team_b']);
    expect((error as MetalsliceError).message).toMatch(/must consist of lower-case letters, digits, "-" and "\."/);
    expect(bad.node.findAll().some((c) => c.node.id === 'backend')).toBe(false);
  });
});

describe('state keys: what each backend can hold', () => {
  it('a kubernetes secret_suffix is a 63-character DNS subdomain: the Secret name and the label value both hold it', () => {
    for (const ok of ['a', 'metalslice-pool-a', 'fra1.metalslice', 'x'.repeat(63)]) {
      expect(stateKeyProblem('kubernetes', ok)).toBeUndefined();
      // What OpenTofu's createSecretName checks: the Secret's name is a DNS-1123 subdomain.
      expect(kubernetesStateSecretName(ok)).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/);
    }
    for (const bad of ['', 'x'.repeat(64), 'Pool', 'a_b', 'a-', '-a', 'a..b', 'a/b']) expect(stateKeyProblem('kubernetes', bad)).toBeDefined();
  });

  it('an S3 key must not start with "/" and fits 1024 bytes; a pg schema fits 63 bytes, past which Postgres would cut it', () => {
    expect(stateKeyProblem('s3', 'metalslice/provider.tfstate')).toBeUndefined();
    expect(stateKeyProblem('s3', '/metalslice/provider.tfstate')).toMatch(/starts with "\/"/);
    expect(stateKeyProblem('s3', 'k'.repeat(1025))).toMatch(/1025 bytes/);
    expect(stateKeyProblem('pg', 's'.repeat(63))).toBeUndefined();
    expect(stateKeyProblem('pg', 's'.repeat(64))).toMatch(/64 bytes long; Postgres cuts identifiers at 63/);
  });

  it('no quota may take the state namespace: its Role would read every state', () => {
    const config = example();
    const quotas = (config.quotas ?? []).map((q, i) => (i === 1 ? { ...q, namespace: 'metalslice-state' } : q));
    const plan = planModel({ ...config, quotas });
    expect(plan.ok).toBe(false);
    expect(plan.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'quotas[1].namespace', message: expect.stringMatching(/"metalslice-state" belongs to the platform/) }),
      ]),
    );
  });
});
