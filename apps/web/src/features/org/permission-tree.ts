import { devTypeOpKey, type MenuEntry, RESOURCE_TYPES, type ResourceType } from '@uiot/contracts';

/**
 * The resources a role, staff member or department can be granted (spec §6), as a tree: one group per
 * resource type that has entries; under Web, every menu of the catalogue with its button keys; under App,
 * the clients' keys; under DevTypeOp, every device type.
 */
export interface PermissionNode {
  /** The permission key of a checkable node; an id of its own (`type:Web`, `menu:Sys`) for a group. */
  key: string;
  title: string;
  checkable: boolean;
  children?: PermissionNode[];
}

export interface PermissionTitles {
  /** Title of a catalogue entry (namespace `menu`). */
  menu: (titleKey: string) => string;
  /** Title of a permission key (namespace `permission`). */
  key: (key: string) => string;
}

/**
 * Menus with a permission become checkable nodes with their buttons below; open menus are left out. A key
 * is offered once, by the first menu that has it (two pages may share a key, e.g. both device ledgers).
 */
export function webResources(catalogue: readonly MenuEntry[], titles: PermissionTitles): PermissionNode[] {
  return menuResources(catalogue, titles, new Set());
}

function menuResources(
  catalogue: readonly MenuEntry[],
  titles: PermissionTitles,
  seen: Set<string>,
): PermissionNode[] {
  const fresh = (key: string) => {
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  return catalogue.flatMap((entry): PermissionNode[] => {
    const own = entry.permission && fresh(entry.permission) ? entry.permission : null;
    const children = menuResources(entry.children ?? [], titles, seen);
    const buttons = (entry.buttons ?? [])
      .filter(fresh)
      .map((key) => ({ key, title: titles.key(key), checkable: true }));
    const below = [...children, ...buttons];
    if (own) {
      return [
        {
          key: own,
          title: titles.menu(entry.titleKey),
          checkable: true,
          ...(below.length > 0 ? { children: below } : {}),
        },
      ];
    }
    // A menu whose key an earlier menu offers keeps only what is new below it, in its place.
    if (entry.permission) return below;
    // A group without a key of its own is shown only for the menus below it.
    if (!entry.children || below.length === 0) return [];
    return [
      { key: `menu:${entry.name}`, title: titles.menu(entry.titleKey), checkable: false, children: below },
    ];
  });
}

/**
 * App resources (spec §6): what a mobile or PC client may do for its staff member, each key checkable on
 * its own and titled like any permission key.
 */
export function appResources(keys: readonly string[], title: PermissionTitles['key']): PermissionNode[] {
  return keys.map((key) => ({ key, title: title(key), checkable: true }));
}

/** A device type as the permission tree needs it: its id, name and sub types. */
export interface DevTypeResource {
  id: string;
  name: string;
  children?: readonly DevTypeResource[];
}

/**
 * DevTypeOp resources (spec §6): every device type, main types with their sub types below, each checkable
 * on its own with the key `devTypeOp:{id}` and titled by its name.
 */
export function devTypeResources(types: readonly DevTypeResource[]): PermissionNode[] {
  return types.map((type) => {
    const children = devTypeResources(type.children ?? []);
    return {
      key: devTypeOpKey(type.id),
      title: type.name,
      checkable: true,
      ...(children.length > 0 ? { children } : {}),
    };
  });
}

/** One group per resource type, in the order of spec §6; a type without entries is not shown. */
export function resourceTree(
  resources: Partial<Record<ResourceType, readonly PermissionNode[]>>,
  typeTitle: (type: ResourceType) => string,
): PermissionNode[] {
  return RESOURCE_TYPES.flatMap((type) => {
    const children = resources[type] ?? [];
    return children.length > 0
      ? [{ key: `type:${type}`, title: typeTitle(type), checkable: false, children: [...children] }]
      : [];
  });
}

/** The keys a user may give or take (from the server: the user's own, or every key for role admin). */
export interface Grantable {
  keys: readonly string[];
  all: boolean;
}

/**
 * The tree as the user may change it (finding 8): a key the user does not hold is not offered. A menu whose
 * key the user lacks stays as a group when a button below it is offered; a group left empty goes.
 */
export function grantableTree(nodes: readonly PermissionNode[], grantable: Grantable): PermissionNode[] {
  if (grantable.all) return [...nodes];
  const held = new Set(grantable.keys);
  return nodes.flatMap((node): PermissionNode[] => {
    const children = grantableTree(node.children ?? [], grantable);
    const offered = node.checkable && held.has(node.key);
    if (!offered && children.length === 0) return [];
    return [
      {
        key: offered || !node.checkable ? node.key : `group:${node.key}`,
        title: node.title,
        checkable: offered,
        ...(children.length > 0 ? { children } : {}),
      },
    ];
  });
}

/** How many of a subject's keys the user may not change: they stay as they are when the user saves. */
export function keysBeyond(granted: readonly string[], grantable: Grantable): number {
  if (grantable.all) return 0;
  const held = new Set(grantable.keys);
  return granted.filter((key) => !held.has(key)).length;
}

/** Every permission key the tree offers. */
export function treeKeys(nodes: readonly PermissionNode[]): string[] {
  return nodes.flatMap((node) => [...(node.checkable ? [node.key] : []), ...treeKeys(node.children ?? [])]);
}

/**
 * The keys to save: those checked in the tree, and those granted before that the tree does not offer (a
 * key of a page this console does not show must not be lost by saving).
 */
export function keysToSave(
  checked: readonly string[],
  granted: readonly string[],
  offered: readonly string[],
): string[] {
  const shown = new Set(offered);
  return [...new Set([...checked, ...granted.filter((key) => !shown.has(key))])].sort();
}
