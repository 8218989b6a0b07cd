/**
 * A host group label key as a host's `hostGroups` holds it: `group.metalslice.io/` and a label name of at most 63
 * characters, the form naming/derived.ts `hostGroupLabel` writes (kept literal here: the input layer does not
 * import naming; a unit test holds the two together).
 */
export const HOST_GROUP_KEY_PATTERN = '^group\\.metalslice\\.io/[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$';

/** What the config's problem says when an entry of `hostGroups` is not such a key. */
export const HOST_GROUP_KEY_PROBLEM =
  'must be a host group label key as metalslice writes it on Nodes ("group.metalslice.io/<cluster>.<pool>"): remove it, or run `metalslice inventory` again';
