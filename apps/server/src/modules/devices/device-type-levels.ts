/**
 * The device type catalogue has two levels only: main types (no parent) and sub types under a main type.
 */
export interface TypePlacement {
  /** The type being placed; undefined for a new one. */
  id?: string | undefined;
  /** The chosen parent; null or empty for a main type. */
  parentId: string | null | undefined;
  /** The chosen parent's own parent: null when it is a main type, undefined when it does not exist. */
  parentOfParent: string | null | undefined;
  /** Whether the type being placed has sub types. */
  hasSubTypes: boolean;
}

/**
 * Whether the placement keeps two levels: a sub type goes under an existing main type (not under itself),
 * and a main type that has sub types stays a main type.
 */
export function keepsTwoLevels(p: TypePlacement): boolean {
  if (!p.parentId) return true;
  if (p.parentId === p.id) return false;
  if (p.parentOfParent !== null) return false;
  return !p.hasSubTypes;
}
