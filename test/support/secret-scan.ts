/**
 * Finds secrets where they must not be: bootstrap tokens, private keys, passwords, and any value known to
 * be secret (e.g. the token secrets Terraform generated), in text, or in `tofu show -json` outside the
 * values Terraform marks sensitive.
 */

const PATTERNS: readonly { readonly what: string; readonly re: RegExp }[] = [
  // kubeadm bootstrap tokens: [a-z0-9]{6}.[a-z0-9]{16}
  { what: 'bootstrap token', re: /\b[a-z0-9]{6}\.[a-z0-9]{16}\b/ },
  { what: 'private key', re: /-----BEGIN [A-Z ]*PRIVATE KEY-----/ },
  // A password or token written as a value (not a reference to a Secret or a variable).
  { what: 'password value', re: /\b(password|passwd|token-secret|bmc_password)\b["']?\s*[:=]\s*["'](?!\$\{)[^"'\s]{6,}/i },
];

/** What secret-looking things `text` holds (and which known secrets), as short descriptions. */
export function findSecrets(text: string, known: readonly string[] = []): string[] {
  const hits: string[] = [];
  for (const p of PATTERNS) {
    const m = p.re.exec(text);
    if (m) hits.push(`${p.what}: …${text.slice(Math.max(0, m.index - 40), m.index + 8).replace(/\s+/g, ' ')}…`);
  }
  for (const secret of known) if (secret.length >= 6 && text.includes(secret)) hits.push(`a generated secret (${secret.length} characters)`);
  return hits;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Leaves of a resource's values that are not marked in its `sensitive_values` (same shape, `true` at sensitive leaves). */
function exposedLeaves(values: Json, sensitive: Json, at: string, out: { path: string; value: string }[]): void {
  if (sensitive === true) return;
  if (Array.isArray(values)) values.forEach((v, i) => exposedLeaves(v, Array.isArray(sensitive) ? (sensitive[i] ?? false) : false, `${at}[${i}]`, out));
  else if (values !== null && typeof values === 'object') {
    for (const [k, v] of Object.entries(values))
      exposedLeaves(v, sensitive !== null && typeof sensitive === 'object' && !Array.isArray(sensitive) ? (sensitive[k] ?? false) : false, `${at}.${k}`, out);
  } else if (typeof values === 'string') out.push({ path: at, value: values });
}

interface ShowModule {
  resources?: { address: string; values?: Json; sensitive_values?: Json }[];
  child_modules?: ShowModule[];
}

/** Every string value of `tofu show -json` (state) that Terraform does not mark sensitive. */
export function exposedStateValues(showJson: string): { path: string; value: string }[] {
  const doc = JSON.parse(showJson) as { values?: { root_module?: ShowModule; outputs?: Record<string, { value: Json; sensitive: boolean }> } };
  const out: { path: string; value: string }[] = [];
  const walk = (m: ShowModule | undefined) => {
    for (const r of m?.resources ?? []) exposedLeaves(r.values ?? null, r.sensitive_values ?? false, r.address, out);
    for (const c of m?.child_modules ?? []) walk(c);
  };
  walk(doc.values?.root_module);
  for (const [name, o] of Object.entries(doc.values?.outputs ?? {})) if (!o.sensitive) exposedLeaves(o.value, false, `output.${name}`, out);
  return out;
}

/**
 * The secrets Terraform generated (random_password results): what must appear nowhere but in values
 * Terraform marks sensitive. (Other sensitive-marked values, like a bootstrap token Secret's fixed
 * `auth-extra-groups`, are written in the config and are no secret.)
 */
export function generatedSecrets(showJson: string): string[] {
  const doc = JSON.parse(showJson) as { values?: { root_module?: ShowModule } };
  const out: string[] = [];
  const walk = (m: ShowModule | undefined) => {
    for (const r of m?.resources ?? []) {
      const result = (r.values as { result?: unknown } | null)?.result;
      if (r.address.split('.').some((part) => part === 'random_password') && typeof result === 'string') out.push(result);
    }
    for (const c of m?.child_modules ?? []) walk(c);
  };
  walk(doc.values?.root_module);
  return out;
}

/** The values Terraform marks sensitive in `tofu show -json`. */
export function sensitiveStateValues(showJson: string): string[] {
  const doc = JSON.parse(showJson) as { values?: { root_module?: ShowModule } };
  const out: string[] = [];
  const pick = (values: Json, sensitive: Json) => {
    if (sensitive === true) {
      if (typeof values === 'string') out.push(values);
      else if (values !== null && typeof values === 'object') for (const v of Object.values(values)) pick(v, true);
      return;
    }
    if (values !== null && typeof values === 'object' && sensitive !== null && typeof sensitive === 'object') {
      for (const [k, v] of Object.entries(values)) pick(v, (sensitive as Record<string, Json>)[k] ?? false);
    }
  };
  const walk = (m: ShowModule | undefined) => {
    for (const r of m?.resources ?? []) pick(r.values ?? null, r.sensitive_values ?? false);
    for (const c of m?.child_modules ?? []) walk(c);
  };
  walk(doc.values?.root_module);
  return out;
}
