/**
 * Checks of construct props that TypeScript cannot enforce for every caller (JavaScript, `as any`,
 * values built at run time): a missing required prop is an error naming the construct path and the prop,
 * thrown where the construct is made, not a TypeError deep inside synth.
 */
import { IConstruct } from 'constructs';
import { MetalsliceError } from '../core/base/errors';

/** Throws one MetalsliceError listing every required prop of `props` that is missing. */
export function requireProps<P extends object>(
  scope: IConstruct,
  props: P | undefined,
  required: readonly (keyof P & string)[],
  hints: Partial<Record<keyof P & string, string>> = {},
): void {
  const missing = required.filter(
    (name) =>
      props === undefined || props === null || (props as Record<string, unknown>)[name] === undefined || (props as Record<string, unknown>)[name] === null,
  );
  if (missing.length === 0) return;
  throw new MetalsliceError(
    missing.map((name) => ({ path: `${scope.node.path}.${name}`, message: `${name} is required${hints[name] ? `: ${hints[name]}` : ''}` })),
  );
}
