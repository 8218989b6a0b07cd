/**
 * `metalslice/verify`: replay a plan on a real control plane (etcd, kube-apiserver, kube-scheduler, KWOK)
 * from the cached toolchain. Kept out of the main entry point: it starts processes, so its types need
 * Node's (@types/node), which a construct library's users should not have to install.
 */
export { verifyPlan, formatVerifyResult, VerifyOptions, VerifyResult, PendingVm } from './verify';
export { startControlPlane, ControlPlane, ControlPlaneOptions } from './control-plane';
export type { ReplayOrder } from './replay';
export type { ApiResponse, WatchEvent, WatchStream } from './processes';
export type { ClusterSnapshot } from '../core/hosts/snapshot';
export type { RunningKubevirt } from './kubevirt';
