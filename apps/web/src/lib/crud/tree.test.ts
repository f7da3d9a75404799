import { describe, expect, it } from 'vitest';
import {
  filterTree,
  flattenTree,
  parentKeys,
  searchTree,
  treeOptions,
  withoutEmptyChildren,
} from './tree.ts';

interface Dept {
  id: string;
  name: string;
  children: Dept[];
}
const tree: Dept[] = [
  {
    id: 'hq',
    name: 'Head office',
    children: [
      { id: 'ops', name: 'Operations', children: [{ id: 'night', name: 'Night shift', children: [] }] },
      { id: 'it', name: 'IT', children: [] },
    ],
  },
  { id: 'ext', name: 'Contractors', children: [] },
];

describe('tree tables', () => {
  it('drops empty children lists so leaves cannot be expanded', () => {
    const rows = withoutEmptyChildren(tree);
    expect(rows[1]).toEqual({ id: 'ext', name: 'Contractors' });
    expect(rows[0]?.children.map((d) => 'children' in d)).toEqual([true, false]);
    expect(tree[1]?.children).toEqual([]);
  });

  it('flattens parents before children', () => {
    expect(flattenTree(tree).map((d) => d.id)).toEqual(['hq', 'ops', 'night', 'it', 'ext']);
  });

  it('filters keeping the path to each match', () => {
    const found = filterTree(tree, (d) => d.name.includes('Night'));
    expect(flattenTree(found).map((d) => d.id)).toEqual(['hq', 'ops', 'night']);
    expect(filterTree(tree, () => false)).toEqual([]);
  });

  it('lists the keys of the rows with children', () => {
    expect(parentKeys(tree, (d) => d.id)).toEqual(['hq', 'ops']);
  });
});

describe('searchTree', () => {
  interface Kind {
    id: string;
    name: string;
    category: string;
    children: Kind[];
  }
  const kind = (id: string, category: string, children: Kind[] = []): Kind => ({
    id,
    name: `Type ${id}`,
    category,
    children,
  });
  const kinds = [kind('lock', 'Elec', [kind('pad', 'IoT'), kind('door', 'Elec')]), kind('box', 'LC')];
  const search = {
    text: 'keyword',
    matches: (row: Kind, text: string) => row.name.toLowerCase().includes(text.toLowerCase()),
    equal: ['category'] as const,
  };
  const found = (query: Record<string, string>) =>
    flattenTree(searchTree(kinds, query, search)).map((k) => k.id);

  it('gives the whole tree when nothing is asked', () => {
    expect(searchTree(kinds, {}, search)).toBe(kinds);
    expect(searchTree(kinds, { keyword: '  ', category: '' }, search)).toBe(kinds);
  });

  it('keeps the rows matching the text, with the path to them', () => {
    expect(found({ keyword: 'PAD' })).toEqual(['lock', 'pad']);
  });

  it('matches select fields by the field of the same name, together with the text', () => {
    expect(found({ category: 'Elec' })).toEqual(['lock', 'door']);
    expect(found({ category: 'IoT', keyword: 'type' })).toEqual(['lock', 'pad']);
    expect(found({ category: 'LC', keyword: 'pad' })).toEqual([]);
  });
});

describe('treeOptions', () => {
  interface Unit {
    id: string;
    name: string;
    children: Unit[];
  }
  const unit = (id: string, children: Unit[] = []): Unit => ({ id, name: `Unit ${id}`, children });
  const units = [unit('a', [unit('a1', [unit('a1x')]), unit('a2')]), unit('b')];
  const ids = (options: ReturnType<typeof treeOptions>): string[] =>
    options.flatMap((o) => [o.value, ...ids(o.children ?? [])]);

  it('turns a tree into tree-select options, leaves without a children list', () => {
    expect(treeOptions([unit('a', [unit('a1')])], (u) => u.name)).toEqual([
      { value: 'a', title: 'Unit a', children: [{ value: 'a1', title: 'Unit a1' }] },
    ]);
  });

  it('leaves out the excluded node and everything below it', () => {
    expect(ids(treeOptions(units, (u) => u.name, 'a1'))).toEqual(['a', 'a2', 'b']);
    expect(ids(treeOptions(units, (u) => u.name, 'a'))).toEqual(['b']);
    expect(ids(treeOptions(units, (u) => u.name))).toEqual(['a', 'a1', 'a1x', 'a2', 'b']);
  });
});
