/**
 * Addresses of `for_each` instances, the blocks that move state between them, and the one-vertex dependency
 * (`hub`) that keeps OpenTofu's apply graph linear in the instances.
 *
 * Why a hub: a reference or `depends_on` from a `for_each` resource to another is, in the apply graph, an edge
 * from every instance of the one to every instance of the other (the reference names the resource, not the
 * instance). OpenTofu then walks those edges per instance (its transitive reduction, and the dependencies it records
 * in the state), which costs the cube of the instances. Through a local value, the one graph vertex between them,
 * each instance has one edge, and Terraform still records the same resources as its dependencies (it follows
 * references through locals), so the order of creation and of destruction is the one `depends_on` gave.
 */
import { IResolvable, MapTerraformIterator, TerraformElement, TerraformIterator, TerraformLocal, TerraformStack, Token } from 'cdktf';
import { Construct } from 'constructs';

/**
 * A value made at synth, once: what `Lazy` does, without the stack trace every `Lazy` captures when it is
 * created. Made once because cdktf resolves each resource twice.
 */
export class MadeAtSynth<T> implements IResolvable {
  readonly creationStack: string[] = [];
  private made?: { readonly value: T };

  constructor(private readonly make: () => T) {}

  resolve(): T {
    this.made ??= { value: this.make() };
    return this.made.value;
  }

  toString(): string {
    return Token.asString(this);
  }
}

/** The ids of `c`'s path below its stack, `c`'s own last: what cdktf makes its logical id of. */
export function idsInStack(c: Construct): string[] {
  const scopes = c.node.scopes;
  return scopes.slice(scopes.indexOf(TerraformStack.of(c)) + 1).map((s) => s.node.id);
}

/** `type.name` of a resource, for an expression written by hand. */
export const addressOf = (r: { terraformResourceType: string; friendlyUniqueId: string }): string => `${r.terraformResourceType}.${r.friendlyUniqueId}`;

/** One instance of a `for_each` resource, as `moved`, `import` and `removed` blocks name it. */
export const instance = (address: string, key: string): string => `${address}[${JSON.stringify(key)}]`;

/**
 * A local value in `scope` that refers to every resource `resources()` gives (resolved at synth), for `depends_on`:
 * what depends on it waits for all of their instances, through one vertex of the graph.
 */
export function hub(scope: Construct, id: string, resources: () => readonly { terraformResourceType: string; friendlyUniqueId: string }[]): TerraformLocal {
  return new TerraformLocal(scope, id, new MadeAtSynth(() => `\${[${resources().map(addressOf).join(', ')}]}`));
}

/**
 * A `for_each` over a map made at synth, held in a local value in `scope` (id `id`). OpenTofu reads a resource's
 * `for_each` expression again for every instance it plans or applies (for its references, then for its value), and
 * parses every string of a JSON configuration as a template each time: written inline, a map of N keys costs N² in
 * every plan and apply, and was a third of tofu's CPU in an apply of 100 nodes. A local is parsed once per walk;
 * each instance reads its name.
 */
export function forEachOf(scope: Construct, id: string, make: () => Record<string, unknown>): MapTerraformIterator {
  return TerraformIterator.fromMap(new TerraformLocal(scope, id, new MadeAtSynth(make)).asAnyMap);
}

/** Top-level `moved`, `import` and `removed` blocks. */
export interface AddressBlocks {
  /** Where an object was, and where it is now. */
  readonly moved: { from: string; to: string }[];
  /** Objects the stack takes over. */
  readonly import: { to: string; id: string }[];
  /** Resources the state forgets, their objects kept. */
  readonly removed: { from: string; lifecycle: { destroy: false } }[];
}

/** Blocks made at synth that move, import or forget resources by address (JSON output; HCL takes `moved` only). */
export class PerNodeAddresses extends TerraformElement {
  constructor(
    scope: Construct,
    id: string,
    private readonly blocks: () => AddressBlocks,
  ) {
    super(scope, id);
  }

  toTerraform(): Record<string, unknown> {
    const b = this.blocks();
    return Object.fromEntries(Object.entries(b).filter(([, list]) => (list as unknown[]).length > 0));
  }

  toHclTerraform(): Record<string, unknown> {
    const b = this.blocks();
    if (b.import.length > 0 || b.removed.length > 0)
      throw new Error(
        `${this.node.path}: taking objects over from metalslice 0.1 or 0.2 needs JSON output: cdktf's HCL output drops the removed and import blocks that keep the old resources' objects. Synthesize that one deploy without --hcl.`,
      );
    const reference = (value: string) => ({ value, isBlock: false, type: 'simple', storageClassType: 'reference' });
    return b.moved.length === 0 ? {} : { moved: b.moved.map((m) => ({ from: reference(m.from), to: reference(m.to) })) };
  }
}
