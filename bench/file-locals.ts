/**
 * The `per-pool-files` layout of the deploy benchmark: a design measured before it is built into the constructs.
 *
 * In a JSON configuration OpenTofu reads every string as a template, and it lexes a local's strings again each time
 * it looks for references (every graph it builds) and each time it evaluates them (every walk). A pool's VM and
 * user data locals are most of a stack's bytes (about 5 KB of text per node). This rewrite moves each such map of
 * per-node strings into a JSON file beside the stack and reads it with `jsondecode(file(...))`, which OpenTofu
 * parses as data, not as templates. Each interpolation becomes a placeholder that `replace` fills in per key, so
 * every `yaml_body` OpenTofu sends to a provider is the same text as in the `per-pool` layout.
 */
import * as fs from 'fs';
import * as path from 'path';

/** A local whose value is a map of per-node strings at least this long (in JSON) is moved to a file. */
const MOVED_AT_BYTES = 20_000;
const INTERPOLATION = /\$\{([^{}]*)\}/g;

/** The interpolations of one node's string, with the node's own key (quoted) written as the for-expression's `k`. */
function keyedInterpolations(name: string, text: string): string[] {
  const quoted = JSON.stringify(name);
  return [...text.matchAll(INTERPOLATION)].map((m) => m[1].split(quoted).join('k'));
}

/** Rewrites one stack directory's `cdk.tf.json` in place; the moved maps are written beside it. */
export function toFileLocals(stackDir: string): void {
  const file = path.join(stackDir, 'cdk.tf.json');
  const tf = JSON.parse(fs.readFileSync(file, 'utf8')) as { locals?: Record<string, unknown> };
  for (const [id, value] of Object.entries(tf.locals ?? {})) {
    if (typeof value !== 'object' || value === null || JSON.stringify(value).length < MOVED_AT_BYTES) continue;
    const entries = Object.entries(value as Record<string, string>);
    const shared = keyedInterpolations(entries[0][0], entries[0][1]);
    const placeholders: Record<string, string> = {};
    for (const [name, text] of entries) {
      // A template's escapes ($${, %%{) and directives (%{) mean something else as plain text: not rewritten.
      if (text.includes('$${') || text.includes('%{')) throw new Error(`local ${id}: ${name} holds a template escape or directive`);
      const own = keyedInterpolations(name, text);
      if (JSON.stringify(own) !== JSON.stringify(shared)) throw new Error(`local ${id}: ${name}'s interpolations are not its key's form of the first node's`);
      let i = 0;
      placeholders[name] = text.replace(INTERPOLATION, () => `@@${i++}@@`);
    }
    const data = `${id}.json`;
    fs.writeFileSync(path.join(stackDir, data), JSON.stringify(placeholders));
    const filled = shared.reduce((body, expression, i) => `replace(${body}, "@@${i}@@", ${expression})`, 'v');
    tf.locals![id] = `\${{ for k, v in jsondecode(file("\${path.module}/${data}")) : k => ${filled} }}`;
  }
  fs.writeFileSync(file, JSON.stringify(tf, null, 2));
}
