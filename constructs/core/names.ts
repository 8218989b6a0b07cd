/** Kubernetes name rules that metalslice names must follow, since they become object names. */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const LABEL_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Why `name` is not a DNS-1123 label, or undefined when it is one. */
export function dns1123LabelProblem(name: string, maxLength = 63): string | undefined {
  if (name.length === 0) return 'must not be empty';
  if (name.length > maxLength) return `is ${name.length} characters long; at most ${maxLength} are allowed`;
  if (!DNS1123_LABEL.test(name)) {
    return 'must consist of lower-case letters, digits and "-", and start and end with a letter or digit (for example "team-a")';
  }
  return undefined;
}

/** Why `key` is not a valid label key (optional DNS prefix, "/", name of at most 63 characters). */
export function labelKeyProblem(key: string): string | undefined {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined && (prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix))) {
    return `prefix "${prefix}" must be a DNS subdomain such as example.com`;
  }
  if (name.length === 0 || name.length > 63 || !LABEL_NAME.test(name)) {
    return 'name part must be 1-63 characters of letters, digits, "-", "_" or ".", starting and ending with a letter or digit';
  }
  return undefined;
}

/** Why `value` is not a valid label value. */
export function labelValueProblem(value: string): string | undefined {
  if (value.length > 63) return `is ${value.length} characters long; at most 63 are allowed`;
  if (!LABEL_VALUE.test(value)) return 'must be empty or letters, digits, "-", "_" or ".", starting and ending with a letter or digit';
  return undefined;
}
