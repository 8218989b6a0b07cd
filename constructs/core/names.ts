/** Kubernetes name rules that metalslice names must follow, since they become object names and labels. */

// Label syntax as Kubernetes validates it (apimachinery validation.IsQualifiedName / IsValidLabelValue).
const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Why `name` is not a DNS-1123 label, or undefined when it is one. */
export function dns1123LabelProblem(name: string, maxLength = 63): string | undefined {
  if (name.length === 0) return 'must not be empty';
  if (name.length > maxLength) return `is ${name.length} characters long; at most ${maxLength} are allowed`;
  if (!DNS_LABEL.test(name)) {
    return 'must consist of lower-case letters, digits and "-", and start and end with a letter or digit (for example "team-a")';
  }
  return undefined;
}


/** Why `key` is not a valid label key (`prefix/name`), or undefined when it is. */
export function labelKeyProblem(key: string): string | undefined {
  if (key === '') return 'it is empty';
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined && (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))) {
    return `the prefix "${prefix}" is not a DNS subdomain (lower-case letters, digits, '-' and '.')`;
  }
  if (name.length > 63) return `the name part is ${name.length} characters long, at most 63 are allowed`;
  if (!LABEL_NAME.test(name)) return `the name part "${name}" must start and end with a letter or digit and hold only letters, digits, '-', '_' and '.'`;
  return undefined;
}

/** Why `value` is not a valid label value, or undefined when it is. The empty value is valid. */
export function labelValueProblem(value: string): string | undefined {
  if (value.length > 63) return `it is ${value.length} characters long, at most 63 are allowed`;
  if (value !== '' && !LABEL_NAME.test(value)) return "it must start and end with a letter or digit and hold only letters, digits, '-', '_' and '.'";
  return undefined;
}

/**
 * True for a node type name: a Kubernetes object name (DNS-1123 subdomain, as vCluster Platform's NodeType
 * is an object) that is also a label value (it becomes the node's instance-type label), so at most 63
 * characters and dots allowed (`t3.medium`).
 */
export function isNodeTypeName(name: string): boolean {
  return name.length <= 63 && DNS_SUBDOMAIN.test(name);
}

/** True for a DNS-1123 label: what metalslice requires of every name. */
export function isDnsLabel(name: string): boolean {
  return name.length <= 63 && DNS_LABEL.test(name);
}
