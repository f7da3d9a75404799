import type { MenuEntry } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import {
  affixEntries,
  findMenuEntry,
  menuRouteSpecs,
  menusOfUser,
  menuTrail,
  menuTrailByName,
  openGroupNames,
  sidebarEntries,
} from './menu-tree.ts';

/** A fixture with the four kinds of entries: plain, hidden, nested and external. */
const catalogue: MenuEntry[] = [
  { name: 'Home', path: '/home', titleKey: 'home', icon: 'home', affix: true },
  { name: 'Profile', path: '/profile', titleKey: 'profile', hidden: true },
  {
    name: 'Device',
    path: '/device',
    titleKey: 'device',
    children: [
      { name: 'Unit', path: '/device/unit', titleKey: 'unit' },
      { name: 'Ledger', path: '/device/ledger', titleKey: 'ledger' },
      { name: 'LedgerDetail', path: '/device/ledger/detail', titleKey: 'ledgerDetail', hidden: true },
      {
        name: 'Keys',
        path: '/device/keys',
        titleKey: 'keys',
        children: [{ name: 'KeyLedger', path: '/device/keys/ledger', titleKey: 'keyLedger' }],
      },
    ],
  },
  {
    name: 'Sys',
    path: '/sys',
    titleKey: 'sys',
    children: [{ name: 'OnlyHidden', path: '/sys/hidden', titleKey: 'hidden', hidden: true }],
  },
  { name: 'Manual', path: 'https://example.com/manual', titleKey: 'manual', external: true },
];

const names = (entries: MenuEntry[]) => entries.map((entry) => entry.name);

describe('menusOfUser', () => {
  it('keeps the leaves the user holds and the groups above them', () => {
    const entries = menusOfUser(catalogue, ['Home', 'Ledger', 'Manual']);
    expect(names(entries)).toEqual(['Home', 'Device', 'Manual']);
    expect(names(entries[1]!.children!)).toEqual(['Ledger']);
  });

  it('drops a group none of whose pages is held, even when its own name is', () => {
    expect(names(menusOfUser(catalogue, ['Device', 'Home']))).toEqual(['Home']);
  });

  it('gives nothing for a user without menus', () => {
    expect(menusOfUser(catalogue, [])).toEqual([]);
  });

  it('does not change the catalogue', () => {
    const before = JSON.stringify(catalogue);
    menusOfUser(catalogue, ['Unit']);
    expect(JSON.stringify(catalogue)).toBe(before);
  });
});

describe('menuRouteSpecs', () => {
  const all = menusOfUser(catalogue, [
    'Home',
    'Profile',
    'Unit',
    'Ledger',
    'LedgerDetail',
    'KeyLedger',
    'Manual',
  ]);

  it('makes a route for every page, hidden ones included, and none for external links', () => {
    const specs = menuRouteSpecs(all).filter((spec) => !spec.redirectTo);
    expect(specs.map((spec) => spec.path)).toEqual([
      '/home',
      '/profile',
      '/device/unit',
      '/device/ledger',
      '/device/ledger/detail',
      '/device/keys/ledger',
    ]);
  });

  it('sends a group to its first page', () => {
    const redirects = menuRouteSpecs(all).filter((spec) => spec.redirectTo);
    expect(redirects.map((spec) => [spec.path, spec.redirectTo])).toEqual([
      ['/device', '/device/unit'],
      ['/device/keys', '/device/keys/ledger'],
    ]);
  });
});

describe('sidebarEntries', () => {
  it('leaves out hidden entries and groups with only hidden children, keeps external links', () => {
    const entries = sidebarEntries(catalogue);
    expect(names(entries)).toEqual(['Home', 'Device', 'Manual']);
    expect(names(entries[1]!.children!)).toEqual(['Unit', 'Ledger', 'Keys']);
  });
});

describe('menuTrail', () => {
  it('lists the groups above a nested page, the page last', () => {
    expect(names(menuTrail(catalogue, '/device/keys/ledger'))).toEqual(['Device', 'Keys', 'KeyLedger']);
    expect(openGroupNames(catalogue, '/device/keys/ledger')).toEqual(['Device', 'Keys']);
  });

  it('finds the chain of a group by name', () => {
    expect(names(menuTrailByName(catalogue, 'Keys'))).toEqual(['Device', 'Keys']);
  });

  it('finds hidden pages and nothing for unknown paths or external addresses', () => {
    expect(findMenuEntry(catalogue, '/device/ledger/detail')?.name).toBe('LedgerDetail');
    expect(menuTrail(catalogue, '/nowhere')).toEqual([]);
    expect(menuTrail(catalogue, 'https://example.com/manual')).toEqual([]);
  });
});

describe('affixEntries', () => {
  it('pins the affix pages', () => {
    expect(names(affixEntries(catalogue))).toEqual(['Home']);
  });
});
