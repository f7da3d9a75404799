import {
  ALL_PERMISSIONS,
  APP_RESOURCES,
  devTypeOpKey,
  flattenMenus,
  MENU_CATALOGUE,
  type MenuEntry,
  Permission,
} from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import {
  appResources,
  devTypeResources,
  grantableTree,
  keysBeyond,
  keysToSave,
  type PermissionNode,
  resourceTree,
  treeKeys,
  webResources,
} from './permission-tree.ts';

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

  it('offers a key shared by two menus once, under the first', () => {
    const shared: readonly MenuEntry[] = [
      {
        name: 'A',
        path: '/a',
        titleKey: 'a',
        permission: Permission.DeviceRead,
        buttons: [Permission.DeviceCreate],
      },
      {
        name: 'B',
        path: '/b',
        titleKey: 'b',
        permission: Permission.DeviceRead,
        buttons: [Permission.DeviceCreate, Permission.DeviceExport],
      },
    ];
    expect(webResources(shared, titles)).toEqual([
      {
        key: 'device.read',
        title: 'menu:a',
        checkable: true,
        children: [{ key: 'device.create', title: 'permission:device.create', checkable: true }],
      },
      { key: 'device.export', title: 'permission:device.export', checkable: true },
    ]);
  });

  it('offers every menu key and button key of the real catalogue, each once', () => {
    const entries = flattenMenus(MENU_CATALOGUE);
    const expected = entries.flatMap((entry) => [
      ...(entry.permission ? [entry.permission] : []),
      ...(entry.buttons ?? []),
    ]);
    const keys = treeKeys(webResources(MENU_CATALOGUE, titles));
    expect(keys.sort()).toEqual([...new Set(expected)].sort());
  });
});

describe('appResources', () => {
  it("lists the clients' keys, each checkable and titled from the permission namespace", () => {
    expect(appResources(APP_RESOURCES, titles.key)).toEqual([
      { key: 'app.taskDownload', title: 'permission:app.taskDownload', checkable: true },
      { key: 'app.recordUpload', title: 'permission:app.recordUpload', checkable: true },
    ]);
  });

  it('puts them in the App group, between Web and DevTypeOp', () => {
    const tree = resourceTree(
      {
        Web: webResources(MENU_CATALOGUE, titles),
        App: appResources(APP_RESOURCES, titles.key),
        DevTypeOp: devTypeResources([{ id: 'lock', name: 'Padlock' }]),
      },
      (type) => type,
    );
    expect(tree.map((node) => node.key)).toEqual(['type:Web', 'type:App', 'type:DevTypeOp']);
    expect(treeKeys(tree.filter((node) => node.key === 'type:App'))).toEqual([...APP_RESOURCES]);
  });

  it('together with Web offers every permission key of the contracts, each once', () => {
    const keys = treeKeys([
      ...webResources(MENU_CATALOGUE, titles),
      ...appResources(APP_RESOURCES, titles.key),
    ]);
    expect(keys.length).toBe(new Set(keys).size);
    expect(keys.sort()).toEqual([...ALL_PERMISSIONS].sort());
  });
});

describe('devTypeResources', () => {
  const types = [
    {
      id: 'lock',
      name: 'Padlock',
      children: [
        { id: 'lock-nb', name: 'NB padlock', children: [] },
        { id: 'lock-lora', name: 'LoRa padlock', children: [] },
      ],
    },
    { id: 'cabinet', name: 'Cabinet lock', children: [] },
  ];

  it('lists every main type with its sub types below, checkable, keyed devTypeOp:{id}', () => {
    expect(devTypeResources(types)).toEqual([
      {
        key: 'devTypeOp:lock',
        title: 'Padlock',
        checkable: true,
        children: [
          { key: 'devTypeOp:lock-nb', title: 'NB padlock', checkable: true },
          { key: 'devTypeOp:lock-lora', title: 'LoRa padlock', checkable: true },
        ],
      },
      { key: 'devTypeOp:cabinet', title: 'Cabinet lock', checkable: true },
    ]);
  });

  it('offers one key per device type, under the DevTypeOp group', () => {
    const tree = resourceTree({ DevTypeOp: devTypeResources(types) }, (type) => type);
    expect(tree.map((node) => node.key)).toEqual(['type:DevTypeOp']);
    expect(treeKeys(tree)).toEqual(['lock', 'lock-nb', 'lock-lora', 'cabinet'].map(devTypeOpKey));
  });

  it('is empty without device types (the group is then not shown)', () => {
    expect(devTypeResources([])).toEqual([]);
    expect(resourceTree({ DevTypeOp: devTypeResources([]) }, (type) => type)).toEqual([]);
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

  it('keeps the grant of a deleted device type, and drops an unchecked one still offered', () => {
    const offered = treeKeys(devTypeResources([{ id: 'lock', name: 'Padlock' }]));
    expect(
      keysToSave([], [devTypeOpKey('lock'), devTypeOpKey('deleted-type')], ['param.read', ...offered]),
    ).toEqual([devTypeOpKey('deleted-type')]);
    expect(keysToSave([devTypeOpKey('lock')], [], offered)).toEqual([devTypeOpKey('lock')]);
  });
});

describe('finding 8: the tree offers only what the user may give', () => {
  const tree: PermissionNode[] = [
    {
      key: 'type:Web',
      title: 'Web',
      checkable: false,
      children: [
        {
          key: 'param.read',
          title: 'Params',
          checkable: true,
          children: [
            { key: 'param.create', title: 'Create', checkable: true },
            { key: 'param.update', title: 'Update', checkable: true },
          ],
        },
        { key: 'staff.read', title: 'Staff', checkable: true },
      ],
    },
    {
      key: 'type:DevTypeOp',
      title: 'Types',
      checkable: false,
      children: [{ key: devTypeOpKey('t1'), title: 'Lock', checkable: true }],
    },
  ];

  it('keeps the keys the user holds, a menu without its key as a group, and drops what is left empty', () => {
    expect(grantableTree(tree, { keys: ['param.update', 'staff.read'], all: false })).toEqual([
      {
        key: 'type:Web',
        title: 'Web',
        checkable: false,
        children: [
          {
            key: 'group:param.read',
            title: 'Params',
            checkable: false,
            children: [{ key: 'param.update', title: 'Update', checkable: true }],
          },
          { key: 'staff.read', title: 'Staff', checkable: true },
        ],
      },
    ]);
    expect(treeKeys(grantableTree(tree, { keys: [devTypeOpKey('t1')], all: false }))).toEqual([
      devTypeOpKey('t1'),
    ]);
    expect(grantableTree(tree, { keys: [], all: false })).toEqual([]);
  });

  it('offers everything to the admin role', () => {
    expect(grantableTree(tree, { keys: [], all: true })).toEqual(tree);
  });

  it('counts the keys of the subject the user may not change', () => {
    const granted = ['param.read', 'staff.read', devTypeOpKey('t1')];
    expect(keysBeyond(granted, { keys: ['staff.read'], all: false })).toBe(2);
    expect(keysBeyond(granted, { keys: [], all: true })).toBe(0);
  });
});
