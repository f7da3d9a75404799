import type { MenuEntry } from '@uiot/contracts';

/**
 * Derivations of the menu catalogue (STYLE.md point 6): the user's entries, the routes, the sidebar, the
 * breadcrumb trail and the pinned tabs all come from the same tree.
 */

/** Entries the user may open: leaves named in the user's menus, groups that keep at least one child. */
export function menusOfUser(catalogue: readonly MenuEntry[], menuNames: readonly string[]): MenuEntry[] {
  const allowed = new Set(menuNames);
  const keep = (entries: readonly MenuEntry[]): MenuEntry[] =>
    entries.flatMap((entry) => {
      if (!entry.children) return allowed.has(entry.name) ? [{ ...entry }] : [];
      const children = keep(entry.children);
      return children.length > 0 ? [{ ...entry, children }] : [];
    });
  return keep(catalogue);
}

/** A route generated from an entry: a page, or (for a group) a redirect to its first page. */
export interface MenuRouteSpec {
  path: string;
  entry: MenuEntry;
  redirectTo?: string;
}

function firstPagePath(entry: MenuEntry): string | undefined {
  if (entry.external) return undefined;
  if (!entry.children) return entry.path;
  for (const child of entry.children) {
    const path = firstPagePath(child);
    if (path) return path;
  }
  return undefined;
}

/** Routes of the entries; external links open a new window and have no route. */
export function menuRouteSpecs(entries: readonly MenuEntry[]): MenuRouteSpec[] {
  return entries.flatMap((entry): MenuRouteSpec[] => {
    if (entry.external) return [];
    if (!entry.children) return [{ path: entry.path, entry }];
    const redirectTo = firstPagePath(entry);
    const own: MenuRouteSpec[] =
      redirectTo && redirectTo !== entry.path ? [{ path: entry.path, entry, redirectTo }] : [];
    return [...own, ...menuRouteSpecs(entry.children)];
  });
}

/** Entries shown in the sidebar: hidden entries are left out, and groups left without a visible child. */
export function sidebarEntries(entries: readonly MenuEntry[]): MenuEntry[] {
  return entries.flatMap((entry) => {
    if (entry.hidden) return [];
    if (!entry.children) return [entry];
    const children = sidebarEntries(entry.children);
    return children.length > 0 ? [{ ...entry, children }] : [];
  });
}

function trailTo(entries: readonly MenuEntry[], matches: (entry: MenuEntry) => boolean): MenuEntry[] {
  for (const entry of entries) {
    if (matches(entry)) return [entry];
    if (entry.children) {
      const below = trailTo(entry.children, matches);
      if (below.length > 0) return [entry, ...below];
    }
  }
  return [];
}

/** The chain of entries from the top of the tree to the entry of `pathname`, or [] when none matches. */
export function menuTrail(entries: readonly MenuEntry[], pathname: string): MenuEntry[] {
  return trailTo(entries, (entry) => !entry.external && entry.path === pathname);
}

/** The chain of entries from the top of the tree to the entry named `name`. */
export function menuTrailByName(entries: readonly MenuEntry[], name: string): MenuEntry[] {
  return trailTo(entries, (entry) => entry.name === name);
}

export function findMenuEntry(entries: readonly MenuEntry[], pathname: string): MenuEntry | undefined {
  return menuTrail(entries, pathname).at(-1);
}

/** Entries pinned in the tags view. */
export function affixEntries(entries: readonly MenuEntry[]): MenuEntry[] {
  return entries.flatMap((entry) => [
    ...(entry.affix && !entry.external && !entry.children ? [entry] : []),
    ...affixEntries(entry.children ?? []),
  ]);
}

/** Names of the groups above the entry of `pathname`: the submenu to open in the sidebar. */
export function openGroupNames(entries: readonly MenuEntry[], pathname: string): string[] {
  return menuTrail(entries, pathname)
    .slice(0, -1)
    .map((entry) => entry.name);
}
