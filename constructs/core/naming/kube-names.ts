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

/**
 * Why `name` is not a DNS-1123 subdomain of at most `maxLength` characters (an object name such as a Secret's),
 * or undefined when it is one.
 */
export function dns1123SubdomainProblem(name: string, maxLength = 253): string | undefined {
  if (name.length === 0) return 'must not be empty';
  if (name.length > maxLength) return `is ${name.length} characters long; at most ${maxLength} are allowed`;
  if (!DNS_SUBDOMAIN.test(name)) {
    return 'must consist of lower-case letters, digits, "-" and ".", and start and end with a letter or digit (for example "metalslice-pool-a")';
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

// The labels a kubelet may set on its own Node (k8s.io/kubelet pkg/apis/well_known_labels.go): it refuses
// to start with any other label under kubernetes.io or k8s.io in --node-labels.
const KUBELET_LABELS = new Set([
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
]);
const KUBELET_LABEL_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

/** Why a kubelet would refuse to register its node with label `key`, or undefined when it would not. */
export function kubeletLabelProblem(key: string): string | undefined {
  const slash = key.indexOf('/');
  if (slash < 0) return undefined;
  const namespace = key.slice(0, slash);
  const reserved = [namespace, `.${namespace}`].some((n) => n === 'kubernetes.io' || n === 'k8s.io' || n.endsWith('.kubernetes.io') || n.endsWith('.k8s.io'));
  if (!reserved || KUBELET_LABELS.has(key)) return undefined;
  if (KUBELET_LABEL_NAMESPACES.some((n) => namespace === n || namespace.endsWith(`.${n}`))) return undefined;
  return `the kubelet refuses to join with labels under ${namespace} other than its own well-known ones (and kubelet.kubernetes.io / node.kubernetes.io): use a prefix of your own, e.g. example.com/${key.slice(slash + 1)}`;
}
