// Packages npm marks deprecated (or that are unmaintained with known advisories), by name and the versions
// affected. A runtime tree (`npm ls --omit=dev --all --json`) must hold none of them: metalslice's users install
// that tree. The list is checked offline, so a test never asks the registry; add to it when npm warns of one.

/** Name -> the first version that is fine (`null`: every version is deprecated). */
export const DEPRECATED: Readonly<Record<string, string | null>> = {
  request: null, // deprecated 2020; @kubernetes/client-node 0.x pulled it in
  'request-promise': null,
  'request-promise-native': null,
  'har-validator': null,
  'tough-cookie': '4.0.0',
  'form-data': '4.0.0', // 2.x and 3.x: deprecated with request, and CVE-2025-7783
  uuid: '7.0.0',
  inflight: null,
  glob: '9.0.0',
  rimraf: '4.0.0',
  querystring: null,
  'node-domexception': null,
  domexception: null,
  abab: null,
  'w3c-hr-time': null,
  'sourcemap-codec': null,
  'lodash.get': null,
  'lodash.isequal': null,
};

/** The node of `npm ls --json`: each dependency by name, with its version and its own dependencies. */
export interface NpmLsNode {
  readonly version?: string;
  readonly dependencies?: Readonly<Record<string, NpmLsNode>>;
}

/** a.b.c < x.y.z, on the numeric parts (pre-release tags count as the release). */
function older(version: string, than: string): boolean {
  const parts = (v: string) => v.split(/[.+-]/, 3).map((p) => Number.parseInt(p, 10) || 0);
  const [a, b] = [parts(version), parts(than)];
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

/** Every deprecated package in an `npm ls --json` tree, as `name@version (via a > b > name)`, sorted. */
export function deprecatedIn(tree: NpmLsNode): string[] {
  const found = new Set<string>();
  const walk = (node: NpmLsNode, via: readonly string[]): void => {
    for (const [name, dep] of Object.entries(node.dependencies ?? {})) {
      const fine = DEPRECATED[name];
      const version = dep.version ?? '0.0.0';
      if (fine !== undefined && (fine === null || older(version, fine))) found.add(`${name}@${version} (via ${[...via, name].join(' > ')})`);
      if (via.length < 64) walk(dep, [...via, name]);
    }
  };
  walk(tree, []);
  return [...found].sort();
}
