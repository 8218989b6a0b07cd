/**
 * The vcluster.yaml conformance corpus (test/conformance/vcluster/*.yaml) and vCluster's own verdict on
 * each file (test/golden/vcluster-conformance.json, written by the oracle that runs vCluster's code).
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseDocument } from 'yaml';
import { MetalsliceConfig } from '../../constructs/core/input/model';
import { importVclusterAutoNodes } from '../../constructs/core/input/vcluster';
import { REPO_ROOT } from './models';

export const CORPUS_DIR = path.join(REPO_ROOT, 'test', 'conformance', 'vcluster');
export const CORPUS_GOLDEN = path.join(REPO_ROOT, 'test', 'golden', 'vcluster-conformance.json');

export interface CorpusFile {
  readonly name: string;
  readonly text: string;
  /** Where the example comes from (`# source:` line). */
  readonly source: string;
}

/** Every corpus file, sorted by name. */
export function corpusFiles(): CorpusFile[] {
  if (!fs.existsSync(CORPUS_DIR)) return [];
  return fs
    .readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.yaml') && f !== 'catalogue.yaml')
    .sort()
    .map((name) => {
      const text = fs.readFileSync(path.join(CORPUS_DIR, name), 'utf8');
      const source = /^# source:\s*(.+)$/m.exec(text)?.[1].trim() ?? '';
      return { name, text, source };
    });
}

/** The metalslice config every accepted file is planned against (fleet, quotas, clusters, providers). */
export function corpusCatalogue(): MetalsliceConfig {
  return parseDocument(fs.readFileSync(path.join(CORPUS_DIR, 'catalogue.yaml'), 'utf8')).toJS() as MetalsliceConfig;
}

/** vCluster's parsed pools, as the oracle prints Go's config.PrivateNodesAutoNodes. */
export interface VclusterEntry {
  readonly provider?: string;
  readonly properties?: Record<string, string>;
  readonly static?: readonly { readonly name: string; readonly quantity: number }[] | null;
  readonly dynamic?: readonly { readonly name: string }[] | null;
}

export interface VclusterVerdict {
  readonly name: string;
  readonly ok: boolean;
  readonly error?: string;
  readonly schemaErrors?: readonly string[];
  readonly enabled?: boolean;
  readonly autoNodes?: readonly VclusterEntry[] | null;
}

/** The oracle's verdicts by file name. */
export function vclusterVerdicts(): Map<string, VclusterVerdict> {
  const golden = JSON.parse(fs.readFileSync(CORPUS_GOLDEN, 'utf8')) as { files?: VclusterVerdict[]; verdicts?: VclusterVerdict[] } | VclusterVerdict[];
  const list = Array.isArray(golden) ? golden : (golden.files ?? golden.verdicts ?? []);
  return new Map(list.map((v) => [v.name.replace(/^.*\//, ''), v]));
}

/** A corpus file read as metalslice reads a vcluster.yaml, for the catalogue's tenant cluster and quota. */
export function importCorpusFile(file: { readonly name: string; readonly text: string }, catalogue: MetalsliceConfig) {
  const quota = catalogue.quotas?.[0]?.name;
  return importVclusterAutoNodes(file.text, {
    cluster: catalogue.clusters?.[0]?.name ?? 'tenant',
    ...(quota !== undefined ? { quota } : {}),
    providers: catalogue.nodeProviders,
    pathPrefix: file.name,
  });
}

/** The model a corpus file is planned as: the catalogue plus the file's auto-node pools and read warnings. */
export function corpusModel(file: { readonly name: string; readonly text: string }, catalogue: MetalsliceConfig): MetalsliceConfig {
  const read = importCorpusFile(file, catalogue);
  return { ...catalogue, autoNodes: read.autoNodes.map((e, k) => ({ ...e, source: read.sourcePaths[k] })), readWarnings: read.warnings };
}
