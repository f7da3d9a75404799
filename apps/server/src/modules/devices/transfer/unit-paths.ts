/**
 * Operation units are named in files by their path: the names from the top joined by `/`
 * (`Line 1/Station A`). Sibling names are unique ignoring case, so a path compares ignoring case too.
 */
export const PATH_SEPARATOR = '/';

/** A path as compared: each name trimmed and lower-cased, empty parts dropped; '' is the top level. */
export function normalisePath(text: string): string {
  return text
    .split(PATH_SEPARATOR)
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '')
    .join(PATH_SEPARATOR);
}

/** The path below a parent path. */
export function childPath(parentPath: string, name: string): string {
  return parentPath === '' ? name : `${parentPath}${PATH_SEPARATOR}${name}`;
}

export interface UnitNameNode {
  id: string;
  parentId: string | null;
  name: string;
}

/**
 * The path of every unit as written (names as stored). A unit whose parents loop or are missing gets the
 * part of the path that could be followed.
 */
export function unitPaths(units: readonly UnitNameNode[]): Map<string, string> {
  const byId = new Map(units.map((u) => [u.id, u]));
  const paths = new Map<string, string>();
  const pathOf = (id: string, seen: Set<string>): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const unit = byId.get(id);
    if (!unit) return '';
    seen.add(id);
    const parent = unit.parentId && !seen.has(unit.parentId) ? pathOf(unit.parentId, seen) : '';
    const path = childPath(parent, unit.name);
    paths.set(id, path);
    return path;
  };
  for (const unit of units) pathOf(unit.id, new Set());
  return paths;
}

/** Every unit by its path as compared (`normalisePath`), to find the units a file names. */
export function unitsByPath<U extends UnitNameNode>(units: readonly U[]): Map<string, U> {
  const paths = unitPaths(units);
  return new Map(units.map((u) => [normalisePath(paths.get(u.id)!), u]));
}
