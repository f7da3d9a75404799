import { flattenMenus, MENU_CATALOGUE, type MenuEntry, Permission } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { keysToSave, type PermissionNode, resourceTree, treeKeys, webResources } from './permission-tree.ts';

const titles = { menu: (key: string) => `menu:${key}`, key: (key: string) => `permission:${key}` };

const CATALOGUE: readonly MenuEntry[] = [
  { name: 'Home', path: '/home', titleKey: 'home' },
  {
    name: 'Sys',
    path: '/sys',
    titleKey: 'sys',
    children: [
      {
        name: 'Params',
        path: '/sys/params',
        titleKey: 'params',
        permission: Permission.ParamRead,
        buttons: [Permission.ParamCreate, Permission.ParamUpdate],
      },
      { name: 'About', path: '/sys/about', titleKey: 'about' },
    ],
  },
  { name: 'Open', path: '/open', titleKey: 'open', children: [{ name: 'X', path: '/x', titleKey: 'x' }] },
];

describe('webResources', () => {
  it('lists menus with a key and their buttons, groups only when they keep a menu', () => {
    expect(webResources(CATALOGUE, titles)).toEqual([
      {
        key: 'menu:Sys',
        title: 'menu:sys',
        checkable: false,
        children: [
          {
            key: 'param.read',
            title: 'menu:params',
            checkable: true,
            children: [
              { key: 'param.create', title: 'permission:param.create', checkable: true },
              { key: 'param.update', title: 'permission:param.update', checkable: true },
            ],
          },
        ],
      },
    ]);
  });

  it('offers every menu key and button key of the real catalogue', () => {
    const entries = flattenMenus(MENU_CATALOGUE);
    const expected = entries.flatMap((entry) => [
      ...(entry.permission ? [entry.permission] : []),
      ...(entry.buttons ?? []),
    ]);
    expect(treeKeys(webResources(MENU_CATALOGUE, titles)).sort()).toEqual([...new Set(expected)].sort());
  });
});

describe('resourceTree', () => {
  const web: PermissionNode[] = [{ key: 'param.read', title: 'Parameters', checkable: true }];

  it('shows only the resource types that have entries, in the order of the spec', () => {
    const tree = resourceTree({ DevTypeOp: web, Web: web, App: [] }, (type) => type);
    expect(tree.map((node) => node.key)).toEqual(['type:Web', 'type:DevTypeOp']);
    expect(tree.every((node) => !node.checkable)).toBe(true);
  });

  it('is empty without entries', () => {
    expect(resourceTree({}, (type) => type)).toEqual([]);
  });
});

describe('keysToSave', () => {
  it('keeps granted keys the tree does not offer and drops unchecked ones', () => {
    expect(
      keysToSave(['param.read'], ['param.update', 'oplog.read'], ['param.read', 'param.update']),
    ).toEqual(['oplog.read', 'param.read']);
  });
});
