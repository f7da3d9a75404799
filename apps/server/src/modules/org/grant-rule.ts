/**
 * Who may hand out which permission keys (finding 8 of the security review), a pure rule. A user may give
 * or take only keys the user holds: holding role.grant, staff.assignRole, staff.update or
 * registration.review opens the calls, not every key. The built-in role `admin` holds every key, present and
 * future, the dynamic ones (`devTypeOp:{typeId}`) included.
 */
export interface Grantor {
  isAdmin: boolean;
  permissions: ReadonlySet<string>;
}

/**
 * What a role, a department or an account hands its holders: its keys, or every key (`all`, the role
 * `admin` and those who hold it).
 */
export interface KeySource {
  all: boolean;
  keys: readonly string[];
}

/** Stands for "every key" (the role `admin`) among the keys a change is refused. */
export const EVERY_KEY = '*';

export function holdsKey(grantor: Grantor, key: string): boolean {
  return grantor.isAdmin || grantor.permissions.has(key);
}

/**
 * The keys of `sources` the grantor does not hold, sorted, `EVERY_KEY` for a source of every key: what a
 * change that gives or takes these sources may not hand out or take away. Empty: the change is allowed.
 */
export function keysBeyond(grantor: Grantor, sources: readonly KeySource[]): string[] {
  if (grantor.isAdmin) return [];
  const beyond = new Set<string>();
  for (const source of sources) {
    if (source.all) beyond.add(EVERY_KEY);
    for (const key of source.keys) if (!grantor.permissions.has(key)) beyond.add(key);
  }
  return [...beyond].sort();
}

/**
 * The keys a subject (role, staff member, department) gets when `grantor` saves the set `submitted` over
 * its `current` keys: the keys the grantor holds are as submitted; the others stay as they were, neither
 * added nor removed, whether the grantor's console showed them or not. `refused` lists the keys submitted
 * that the grantor does not hold and the subject did not have: a save that names any is refused whole.
 */
export function mergeGrantSet(
  grantor: Grantor,
  current: readonly string[],
  submitted: readonly string[],
): { keys: string[]; refused: string[] } {
  const had = new Set(current);
  const asked = new Set(submitted);
  const refused = [...asked].filter((key) => !had.has(key) && !holdsKey(grantor, key));
  const kept = current.filter((key) => !holdsKey(grantor, key));
  const given = [...asked].filter((key) => holdsKey(grantor, key));
  return { keys: [...new Set([...kept, ...given])].sort(), refused: refused.sort() };
}

/** The members of one list and not of the other: what a change gives and what it takes away. */
export function changedMembers<T>(before: readonly T[], after: readonly T[]): T[] {
  const was = new Set(before);
  const is = new Set(after);
  return [...[...is].filter((x) => !was.has(x)), ...[...was].filter((x) => !is.has(x))];
}
