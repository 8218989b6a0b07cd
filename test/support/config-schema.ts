/**
 * Writes schema/metalslice-config.schema.json from its one source: the structure is CONFIG_SCHEMA (what the
 * CLI validates with), every description and default is the TSDoc of the TypeScript props it checks
 * (MetalsliceConfig and the specs under it), read with the TypeScript compiler. A field without TSDoc is an
 * error, so the published schema never has an undocumented field.
 */
import * as path from 'path';
import * as ts from 'typescript';
import { CONFIG_API_VERSION, CONFIG_SCHEMA } from '../../constructs/core/input/config-schema';
import { REPO_ROOT } from './models';

type Schema = { [key: string]: unknown; properties?: Record<string, Schema>; items?: Schema; additionalProperties?: Schema | boolean };

/** Where the schema is published, and its `$id`. */
export const CONFIG_SCHEMA_FILE = path.join(REPO_ROOT, 'schema', 'metalslice-config.schema.json');

/** A TSDoc `@default` as JSON Schema says it: a literal becomes `default`, a `- what happens` is said in words. */
function defaultOf(tag: string | undefined): { default?: unknown; words?: string } {
  if (tag === undefined) return {};
  const [value, ...rest] = tag.trim().split(/\s+-\s+|^-\s+/);
  if (value !== '') {
    try {
      return { default: JSON.parse(value) as unknown, words: rest.join(' - ') || undefined };
    } catch {
      return { words: tag.trim() };
    }
  }
  return { words: rest.join(' - ') };
}

function docOf(symbol: ts.Symbol, checker: ts.TypeChecker): { description: string; default?: unknown } {
  const text = ts.displayPartsToString(symbol.getDocumentationComment(checker)).replace(/\s+/g, ' ').trim();
  const tag = symbol.getJsDocTags(checker).find((t) => t.name === 'default');
  const d = defaultOf(tag ? ts.displayPartsToString(tag.text) : undefined);
  const description = d.words ? `${text} Default: ${d.words}.` : text;
  return d.default === undefined ? { description } : { description, default: d.default };
}

/** The element type of a list type, or the type itself. */
function elementOf(type: ts.Type, checker: ts.TypeChecker): ts.Type {
  return checker.getIndexTypeOfType(type, ts.IndexKind.Number) ?? type;
}

function annotate(schema: Schema, type: ts.Type | undefined, checker: ts.TypeChecker, at: string, missing: string[]): Schema {
  const out: Schema = { ...schema };
  if (schema.items && type) out.items = annotate(schema.items, elementOf(checker.getNonNullableType(type), checker), checker, `${at}[]`, missing);
  if (schema.properties) {
    const own = type ? checker.getNonNullableType(type) : undefined;
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, child]) => {
        const symbol = own?.getProperty(key);
        if (!symbol) {
          missing.push(`${at}.${key}`);
          return [key, child];
        }
        const doc = docOf(symbol, checker);
        if (doc.description === '') missing.push(`${at}.${key}`);
        const childType = checker.getTypeOfSymbol(symbol);
        return [key, { ...doc, ...annotate(child, childType, checker, `${at}.${key}`, missing) }];
      }),
    );
  }
  return out;
}

/** The published config schema, built from CONFIG_SCHEMA and the TSDoc of MetalsliceConfig. */
export function buildConfigSchema(): Schema {
  const model = path.join(REPO_ROOT, 'constructs', 'core', 'input', 'model.ts');
  const program = ts.createProgram([model], { strict: true, target: ts.ScriptTarget.ES2022, skipLibCheck: true, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(model)!;
  const config = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'MetalsliceConfig')!;
  const missing: string[] = [];
  const body = annotate(CONFIG_SCHEMA, checker.getTypeAtLocation(config), checker, 'config', missing);
  if (missing.length > 0) throw new Error(`no TSDoc for ${missing.join(', ')}: document the props in constructs/core/input/model.ts`);
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: `metalslice config (apiVersion ${CONFIG_API_VERSION})`,
    description: ts.displayPartsToString(checker.getSymbolAtLocation(config.name)!.getDocumentationComment(checker)),
    ...body,
  };
}
