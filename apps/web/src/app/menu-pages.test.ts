import { flattenMenus, MENU_CATALOGUE } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { MENU_PAGES } from './menu-pages.ts';

describe('MENU_PAGES', () => {
  const pages = flattenMenus(MENU_CATALOGUE).filter((entry) => !entry.external && !entry.children);

  it('has a page for every page entry of the catalogue', () => {
    expect(pages.filter((entry) => !MENU_PAGES[entry.name]).map((entry) => entry.name)).toEqual([]);
  });

  it('has no page that the catalogue does not list', () => {
    const names = new Set(pages.map((entry) => entry.name));
    expect(Object.keys(MENU_PAGES).filter((name) => !names.has(name))).toEqual([]);
  });
});
