/**
 * Launcher pod classes for `verify --kubevirt`. virt-controller renders a VM's launcher pod from the VM alone:
 * two VMs whose rendered VirtualMachines differ only in their name, namespace and host pin get launcher pods
 * that differ only in those strings (and in the VMI's uid and the name's random suffix). So the replay lets
 * virt-controller render one VM of each class and makes the others' pods from it, after every VM has passed
 * KubeVirt's admission (a dry-run create, which runs virt-api's webhooks and writes nothing).
 *
 * A class key is the rendered VirtualMachine with its name, namespace and pinned host replaced by tokens, in
 * every string (the name inside `<vm>-root`, the namespace inside an annotation's command line). Two VMs with
 * one key are one token substitution apart, so the substitution that takes one VM to the other takes its pod
 * to the other's pod as well, as long as KubeVirt copies those strings and does not compute with them: it
 * truncates and hashes names longer than 63 characters and cuts hostnames at a dot, so such a VM is a class
 * of its own. Pure: no I/O.
 */
import { createHash } from 'crypto';

/** What a VM's launcher pod is made of beyond its class: its name, namespace, pinned host and VMI's uid. */
export interface LauncherIdentity {
  /** The VM's (and VMI's) name. */
  readonly name: string;
  /** The VM's namespace. */
  readonly namespace: string;
  /** The host the VM is pinned to (a required node affinity on the host's name); none when spread. */
  readonly host?: string;
  /** The uid of the VM's VMI (in a launcher pod's owner reference, a label and two command lines); none for a VM. */
  readonly uid?: string;
}

/** The tokens an identity's strings become; `<` is in no Kubernetes name, label or image reference. */
const TOKEN = { name: '<vm-name>', namespace: '<vm-namespace>', host: '<vm-host>', uid: '<vmi-uid>' } as const;
const TOKEN_MARK = '<vm';

/** The longest VM name KubeVirt copies as it is into the pod (its DNS-1035 label length; longer ones are cut and hashed). */
const MAX_COPIED_NAME = 63;

/** Applies `f` to every string of a JSON value, object keys included. */
function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [f(k), mapStrings(v, f)]));
  }
  return value;
}

/** Whether any string of a JSON value (or key) contains `needle`. */
function containsString(value: unknown, needle: string): boolean {
  let found = false;
  mapStrings(value, (s) => {
    if (s.includes(needle)) found = true;
    return s;
  });
  return found;
}

function replaceAll(s: string, from: string, to: string): string {
  return from === '' ? s : s.split(from).join(to);
}

/**
 * An object with its identity's strings replaced by tokens: a string equal to the pinned host becomes the host
 * token; elsewhere every occurrence of the name, then of the namespace, then of the uid becomes its token.
 */
export function abstractIdentity(value: unknown, id: LauncherIdentity): unknown {
  return mapStrings(value, (s) => {
    if (id.host !== undefined && s === id.host) return TOKEN.host;
    let out = replaceAll(s, id.name, TOKEN.name);
    out = replaceAll(out, id.namespace, TOKEN.namespace);
    return id.uid === undefined ? out : replaceAll(out, id.uid, TOKEN.uid);
  });
}

/** The reverse of abstractIdentity for another identity: each token becomes that identity's string. */
export function concretizeIdentity(value: unknown, id: LauncherIdentity): unknown {
  return mapStrings(value, (s) => {
    if (s === TOKEN.host) return id.host ?? s;
    let out = replaceAll(s, TOKEN.uid, id.uid ?? TOKEN.uid);
    out = replaceAll(out, TOKEN.namespace, id.namespace);
    return replaceAll(out, TOKEN.name, id.name);
  });
}

/**
 * The class key of a rendered VirtualMachine: its JSON with the identity's strings as tokens. A VM KubeVirt
 * would not treat by substitution (a name over 63 characters or with a dot, a string that already holds a
 * token) is keyed by its own namespace and name, a class of one.
 */
export function launcherClassKey(renderedVm: unknown, id: LauncherIdentity): string {
  if (id.name.length > MAX_COPIED_NAME || id.name.includes('.') || containsString(renderedVm, TOKEN_MARK)) {
    return `alone:${id.namespace}/${id.name}`;
  }
  return JSON.stringify(abstractIdentity(renderedVm, id));
}

/** A launcher pod as the API server returns it: the fields the class pod is made from or leaves out. */
export interface LauncherPodDoc {
  /** Its metadata. */
  readonly metadata: {
    /** Its name (`virt-launcher-<vm>-<5 random characters>`). */
    readonly name?: string;
    /** What the API server made the name from. */
    readonly generateName?: string;
    /** Its namespace. */
    readonly namespace?: string;
    /** Its labels. */
    readonly labels?: Record<string, string>;
    /** Its owner: the VMI. */
    readonly ownerReferences?: readonly { readonly kind: string; readonly uid: string; readonly controller?: boolean }[];
    /** Anything else. */
    readonly [field: string]: unknown;
  };
  /** Its spec. */
  readonly spec?: { readonly nodeName?: string; readonly [field: string]: unknown };
  /** Anything else. */
  readonly [field: string]: unknown;
}

/** The uid of the VMI that owns a launcher pod. */
export function launcherVmiUid(pod: LauncherPodDoc): string | undefined {
  return pod.metadata.ownerReferences?.find((o) => o.kind === 'VirtualMachineInstance' && o.controller)?.uid;
}

/**
 * A VM's stand-in VMI uid: a UUID made from its namespace and name (no VMI exists for a VM whose pod is made
 * from its class's; nothing here collects pods whose owner is gone, and the same VM gets the same uid every time).
 */
export function standInVmiUid(namespace: string, name: string): string {
  const h = createHash('sha256').update(`${namespace}/${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The fields of a stored pod that the API server, the scheduler or time wrote, not virt-controller: a pod to
 * create carries none of them (its name comes from `generateName`, as virt-controller's does).
 */
export function withoutServerFields(pod: LauncherPodDoc): LauncherPodDoc {
  const { name: _name, uid: _uid, resourceVersion: _rv, creationTimestamp: _ct, managedFields: _mf, generation: _g, ...metadata } = pod.metadata;
  const { nodeName: _node, ...spec } = pod.spec ?? {};
  const { status: _status, ...rest } = pod;
  return { ...rest, metadata, spec };
}

/** A JSON string's inside: `s` as it appears between the quotes. */
function jsonInside(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}

/**
 * Makes the launcher pods of a class from its representative's (a VM of the class whose pod virt-controller made):
 * the pod's server fields dropped and its identity's strings made tokens once, then, for each VM, the tokens
 * replaced by the VM's strings (with a stand-in VMI uid), in the pod's JSON text: the same result as
 * concretizeIdentity, without walking the pod again for each of a thousand VMs.
 */
export function classPodMaker(representativePod: LauncherPodDoc, representative: LauncherIdentity): (vm: LauncherIdentity) => LauncherPodDoc {
  const uid = launcherVmiUid(representativePod);
  if (uid === undefined) throw new Error(`the launcher pod of ${representative.namespace}/${representative.name} has no VMI owner to take its uid from`);
  const text = JSON.stringify(abstractIdentity(withoutServerFields(representativePod), { ...representative, uid }));
  return (vm) => {
    let out = vm.host === undefined ? text : replaceAll(text, JSON.stringify(TOKEN.host), JSON.stringify(vm.host));
    out = replaceAll(out, TOKEN.uid, vm.uid ?? standInVmiUid(vm.namespace, vm.name));
    out = replaceAll(out, TOKEN.namespace, jsonInside(vm.namespace));
    return JSON.parse(replaceAll(out, TOKEN.name, jsonInside(vm.name))) as LauncherPodDoc;
  };
}

/** The launcher pod of `vm` made from `representative`'s (classPodMaker for one VM). */
export function classLauncherPod(representativePod: LauncherPodDoc, representative: LauncherIdentity, vm: LauncherIdentity): LauncherPodDoc {
  return classPodMaker(representativePod, representative)(vm);
}
