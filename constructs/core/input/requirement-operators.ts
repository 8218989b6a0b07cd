/**
 * The operators a node type requirement may use, as vCluster's code accepts them: one list that the config
 * schema (config-schema.ts) and the requirement parser (auto/requirements.ts) both read.
 */
import type { RequirementOperator } from './model';

/** Every operator but the empty one, which means `In`. */
export const REQUIREMENT_OPERATORS: readonly RequirementOperator[] = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'];
