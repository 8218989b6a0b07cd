/** Validates core Kubernetes objects offline with kubernetes-models (generated from the OpenAPI spec). */
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { ResourceQuota } from 'kubernetes-models/v1/ResourceQuota';
import { Role } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import { RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import { Secret } from 'kubernetes-models/v1/Secret';

type Model = { validate(): void };
// Each model is built from the object as its own type; validate() then checks it against the OpenAPI schema.
const MODELS: Record<string, (data: object) => Model> = {
  'v1/Namespace': (d) => new Namespace(d),
  'v1/ResourceQuota': (d) => new ResourceQuota(d),
  'v1/Secret': (d) => new Secret(d),
  'rbac.authorization.k8s.io/v1/Role': (d) => new Role(d),
  'rbac.authorization.k8s.io/v1/RoleBinding': (d) => new RoleBinding(d as RoleBinding),
  'networking.k8s.io/v1/NetworkPolicy': (d) => new NetworkPolicy(d),
};

/** Error strings for a core object (empty = valid); unknown kinds are an error, never a silent pass. */
export function validateCoreObject(obj: { apiVersion: string; kind: string; [key: string]: unknown }): string[] {
  const build = MODELS[`${obj.apiVersion}/${obj.kind}`];
  if (!build) return [`no core model for ${obj.apiVersion}/${obj.kind}`];
  try {
    build(obj).validate();
    return [];
  } catch (e) {
    return [(e as Error).message];
  }
}
