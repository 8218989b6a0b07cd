/**
 * Which of metalslice's own node templates a terraform node provider runs (`nodeTemplate.git.subPath` ends in
 * `node-templates/kubevirt` or `node-templates/metal3`), and the properties those templates read. Reading the
 * input needs it (a vcluster.yaml pool on such a provider takes a quota) as much as planning does.
 */
import { NodeTemplateSpec } from './model';

/** The property metalslice's kubevirt template reads the VM's quota from. */
export const TEMPLATE_QUOTA_PROPERTY = 'metalslice.io/quota';
/** The property metalslice's metal3 template reads its HostClaim's host selector from (`key=value,key=value`). */
export const TEMPLATE_HOST_SELECTOR_PROPERTY = 'metalslice.io/host-selector';
/** The property metalslice's metal3 template reads the OS image's URL from (it fails without it). */
export const TEMPLATE_IMAGE_URL_PROPERTY = 'metalslice.io/image-url';
/** The property metalslice's metal3 template reads the BareMetalHosts' namespace from. */
export const TEMPLATE_HOST_NAMESPACE_PROPERTY = 'metalslice.io/host-namespace';
/**
 * The property metalslice's kubevirt template confines a claim's VM to a host group with: the group's Node label
 * key (naming/derived.ts `hostGroupLabel`), which the VM's nodeSelector selects; the plan asks each claim of a
 * grouped pool to carry it.
 */
export const TEMPLATE_HOST_GROUP_PROPERTY = 'metalslice.io/host-group';

/** Where metalslice's node templates live in its repository, as a NodeProvider's `nodeTemplate.git.subPath` names them. */
const TEMPLATE_PATH = /^(\.\/)?(.*\/)?node-templates\/(kubevirt|metal3)\/?$/;

/** Which of metalslice's node templates the template is, if it is one. */
export function metalsliceTemplateOf(template: NodeTemplateSpec | undefined): 'kubevirt' | 'metal3' | undefined {
  const subPath = template?.git?.subPath;
  const found = typeof subPath === 'string' ? TEMPLATE_PATH.exec(subPath) : null;
  return found ? (found[3] as 'kubevirt' | 'metal3') : undefined;
}

/** Whether the template is metalslice's kubevirt node template. */
export function isKubevirtTemplate(template: NodeTemplateSpec | undefined): boolean {
  return metalsliceTemplateOf(template) === 'kubevirt';
}
