import { describe, expect, it } from 'vitest';
import { FEATURE_FLAGS } from './feature-flags.ts';
import { flattenMenus, MENU_CATALOGUE, type MenuEntry, permittedMenus } from './menus.ts';
import { ALL_PERMISSIONS, Permission } from './permissions.ts';

const CATALOGUE: readonly MenuEntry[] = [
  { name: 'Home', path: '/home', titleKey: 'home' },
  { name: 'Staff', path: '/staff', titleKey: 'staff', permission: Permission.StaffRead },
  {
    name: 'Logs',
    path: '/logs',
    titleKey: 'logs',
    children: [
      { name: 'OpLog', path: '/logs/op', titleKey: 'opLog', permission: Permission.OpLogRead },
      { name: 'LoginLog', path: '/logs/login', titleKey: 'loginLog', permission: Permission.LoginLogRead },
    ],
  },
  {
    name: 'System',
    path: '/system',
    titleKey: 'system',
    permission: Permission.StaffRead,
    children: [{ name: 'About', path: '/system/about', titleKey: 'about' }],
  },
];

const names = (entries: MenuEntry[]) => flattenMenus(entries).map((e) => e.name);

describe('permittedMenus', () => {
  it('keeps open entries and drops entries whose permission is missing', () => {
    expect(names(permittedMenus(CATALOGUE, new Set(), {}))).toEqual(['Home']);
    expect(names(permittedMenus(CATALOGUE, new Set([Permission.StaffRead]), {}))).toEqual([
      'Home',
      'Staff',
      'System',
      'About',
    ]);
  });

  it('keeps a parent with only its permitted children', () => {
    const menus = permittedMenus(CATALOGUE, new Set([Permission.OpLogRead]), {});
    expect(names(menus)).toEqual(['Home', 'Logs', 'OpLog']);
    expect(menus.find((m) => m.name === 'Logs')?.children?.map((c) => c.name)).toEqual(['OpLog']);
  });

  it('drops a parent whose children are all dropped', () => {
    const menus = permittedMenus(CATALOGUE, new Set([Permission.StaffRead]), {});
    expect(menus.map((m) => m.name)).not.toContain('Logs');
  });

  it('drops the children of a parent without permission', () => {
    expect(names(permittedMenus(CATALOGUE, new Set([Permission.OpLogRead]), {}))).not.toContain('About');
  });

  it('gives every entry to a holder of every permission, and never changes the catalogue', () => {
    const before = JSON.stringify(CATALOGUE);
    const menus = permittedMenus(CATALOGUE, new Set(ALL_PERMISSIONS), {});
    expect(names(menus)).toEqual(names([...CATALOGUE]));
    const logs = menus.find((m) => m.name === 'Logs')!;
    logs.children!.pop();
    expect(JSON.stringify(CATALOGUE)).toBe(before);
  });

  it('has unique menu names in the real catalogue, with Home and Profile open to everyone', () => {
    const all = names([...MENU_CATALOGUE]);
    expect(new Set(all).size).toBe(all.length);
    expect(names(permittedMenus(MENU_CATALOGUE, new Set(), {}))).toEqual(
      expect.arrayContaining(['Home', 'Profile']),
    );
  });
});

describe('MENU_CATALOGUE', () => {
  const entries = flattenMenus(MENU_CATALOGUE);

  it('gives buttons only to pages, each a permission key used by one page only, never its menu key', () => {
    const seen = new Set<string>();
    for (const entry of entries.filter((e) => e.buttons)) {
      expect(entry.children, `${entry.name} is a group`).toBeUndefined();
      expect(entry.permission, `${entry.name} has buttons but no permission`).toBeDefined();
      for (const key of entry.buttons ?? []) {
        expect(ALL_PERMISSIONS).toContain(key);
        expect(key).not.toBe(entry.permission);
        expect(seen.has(key), `${key} is a button of two pages`).toBe(false);
        seen.add(key);
      }
    }
  });

  it('shows the Sys group only to holders of one of its pages', () => {
    expect(names(permittedMenus(MENU_CATALOGUE, new Set(), {}))).not.toContain('Sys');
    expect(names(permittedMenus(MENU_CATALOGUE, new Set([Permission.ParamRead]), {}))).toEqual(
      expect.arrayContaining(['Sys', 'Params']),
    );
  });
});

describe('feature flags of the menus (spec §6)', () => {
  const DEFAULTS = Object.fromEntries(FEATURE_FLAGS.map((f) => [f.name, f.defVal]));
  const every = new Set<string>(ALL_PERMISSIONS);
  const shown = (flags: Record<string, string>) => names(permittedMenus(MENU_CATALOGUE, every, flags));

  it('show every page with the default flags', () => {
    expect(shown(DEFAULTS)).toEqual(names([...MENU_CATALOGUE]));
  });

  it('drop the IoT pages while SupportIoT is off, and their group once it is empty', () => {
    const menus = shown({ ...DEFAULTS, SupportIoT: 'false' });
    for (const gone of ['MonitorRuntime', 'MonitorRuntimeDetail', 'Monitor', 'IotMessage', 'DeviceCommand']) {
      expect(menus).not.toContain(gone);
    }
    expect(menus).not.toContain('IntervalManage');
    expect(menus).toEqual(expect.arrayContaining(['DeviceLedger', 'KeyLedger']));
  });

  it('drop the remote control records while ShowCmd is off, the key ledger while ShowKeyInfo is off', () => {
    const noCmd = shown({ ...DEFAULTS, ShowCmd: 'false' });
    expect(noCmd).not.toContain('DeviceCommand');
    expect(noCmd).toEqual(expect.arrayContaining(['IotMessage', 'MonitorRuntime']));
    const noKeys = shown({ ...DEFAULTS, ShowKeyInfo: 'false' });
    expect(noKeys).not.toContain('KeyLedger');
    expect(noKeys).toContain('DeviceLedger');
  });

  it('name only switches (boolean flags) as the features of an entry', () => {
    const switches = new Set(FEATURE_FLAGS.filter((f) => f.valType === 'boolean').map((f) => f.name));
    for (const entry of flattenMenus(MENU_CATALOGUE)) {
      for (const flag of entry.features ?? []) expect(switches.has(flag), entry.name).toBe(true);
    }
  });
});
