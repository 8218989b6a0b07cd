/** Validates core Kubernetes objects offline with kubernetes-models (generated from the OpenAPI spec). */
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { ResourceQuota } from 'kubernetes-models/v1/ResourceQuota';
import { Role } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import { RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import { Secret } from 'kubernetes-models/v1/Secret';

type Model = { validate(): void };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const MODELS: Record<string, new (data: any) => Model> = {
  'v1/Namespace': Namespace,
  'v1/ResourceQuota': ResourceQuota,
  'v1/Secret': Secret,
  'rbac.authorization.k8s.io/v1/Role': Role,
  'rbac.authorization.k8s.io/v1/RoleBinding': RoleBinding,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
};

/** Error strings for a core object (empty = valid); unknown kinds are an error, never a silent pass. */
export function validateCoreObject(obj: { apiVersion: string; kind: string; [key: string]: unknown }): string[] {
  const Ctor = MODELS[`${obj.apiVersion}/${obj.kind}`];
  if (!Ctor) return [`no core model for ${obj.apiVersion}/${obj.kind}`];
  try {
    new Ctor(obj).validate();
    return [];
  } catch (e) {
    return [(e as Error).message];
  }
}
