/**
 * What KubeVirt runs on every host of its own: the virt-handler DaemonSet pod. kube-scheduler charges its
 * requests to the host like any pod's, so a host gives VMs its allocatable less virt-handler (and one pod
 * of its pod limit). Follows NewHandlerDaemonSet in
 * pkg/virt-operator/resource/generate/components/daemonsets.go at KUBEVIRT_VERSION; the e2e test
 * `kubevirt-handler` holds these figures to the DaemonSet KubeVirt's own operator code generates.
 */
import { Quantity } from '../base/quantity';
import { ResourceVector } from '../base/resources';

/** The label KubeVirt's pods carry (`virt-handler`, `virt-launcher`, ...): how a cluster's pods are told apart. */
export const KUBEVIRT_APP_LABEL = 'kubevirt.io';
/** The value of KUBEVIRT_APP_LABEL on virt-handler pods. */
export const VIRT_HANDLER_APP = 'virt-handler';
/** The value of KUBEVIRT_APP_LABEL on launcher pods. */
export const VIRT_LAUNCHER_APP = 'virt-launcher';

/**
 * The virt-handler pod's requests as kube-scheduler sums them: the handler container asks for 10m of CPU
 * and 325Mi of memory; its init container (the node labeller) asks for nothing, and the pr-helper and
 * image-holder containers exist only with persistent reservation or image pull secrets, which metalslice's
 * KubeVirt CR does not set.
 */
export function virtHandlerRequests(): ResourceVector {
  return { cpu: Quantity.fromMillis(10), memory: Quantity.fromBytes(325n * 1024n * 1024n), pods: Quantity.fromUnits(1) };
}
