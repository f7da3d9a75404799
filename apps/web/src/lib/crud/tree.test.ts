import { describe, expect, it } from 'vitest';
import { filterTree, flattenTree, parentKeys, withoutEmptyChildren } from './tree.ts';

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
