import { describe, expect, it } from 'vitest';
import { buildTree, byIndexThenName, pathToRoot, wouldCreateCycle } from './tree.ts';

/** root ─ a ─ a1 ─ a11, root ─ b; x stands alone. */
const parents = new Map<string, string | null>([
  ['root', null],
  ['a', 'root'],
  ['a1', 'a'],
  ['a11', 'a1'],
  ['b', 'root'],
  ['x', null],
]);
const parentIdOf = (id: string) => parents.get(id);

describe('wouldCreateCycle', () => {
  it('refuses a node as its own parent', () => {
    expect(wouldCreateCycle(parentIdOf, 'a', 'a')).toBe(true);
    expect(wouldCreateCycle(parentIdOf, 'x', 'x')).toBe(true);
  });

  it('refuses a child or any descendant as the parent', () => {
    expect(wouldCreateCycle(parentIdOf, 'a', 'a1')).toBe(true);
    expect(wouldCreateCycle(parentIdOf, 'a', 'a11')).toBe(true);
    expect(wouldCreateCycle(parentIdOf, 'root', 'a11')).toBe(true);
    expect(wouldCreateCycle(parentIdOf, 'root', 'b')).toBe(true);
  });

  it('allows the top level, a sibling, an ancestor or another branch', () => {
    expect(wouldCreateCycle(parentIdOf, 'a', null)).toBe(false);
    expect(wouldCreateCycle(parentIdOf, 'a', undefined)).toBe(false);
    expect(wouldCreateCycle(parentIdOf, 'a', 'b')).toBe(false);
    expect(wouldCreateCycle(parentIdOf, 'a11', 'root')).toBe(false);
    expect(wouldCreateCycle(parentIdOf, 'a1', 'x')).toBe(false);
    expect(wouldCreateCycle(parentIdOf, 'b', 'a11')).toBe(false);
  });

  it('allows a parent that is not (yet) known', () => {
    expect(wouldCreateCycle(parentIdOf, 'a', 'elsewhere')).toBe(false);
  });

  it('ends on a loop already in the data', () => {
    const looped = new Map([
      ['p', 'q'],
      ['q', 'p'],
    ]);
    expect(wouldCreateCycle((id) => looped.get(id), 'z', 'p')).toBe(false);
    expect(wouldCreateCycle((id) => looped.get(id), 'q', 'p')).toBe(true);
  });
});

interface Row {
  id: string;
  parentId: string | null;
  sortIndex: number;
  name: string;
}
const row = (id: string, parentId: string | null, sortIndex = 0, name = id): Row => ({
  id,
  parentId,
  sortIndex,
  name,
});
const order = byIndexThenName<Row>(
  (r) => r.sortIndex,
  (r) => r.name,
);

describe('pathToRoot', () => {
  it('lists the node and every node above it, nearest first', () => {
    expect(pathToRoot(parentIdOf, 'a11')).toEqual(['a11', 'a1', 'a', 'root']);
    expect(pathToRoot(parentIdOf, 'root')).toEqual(['root']);
  });

  it('keeps a node whose parent is unknown, and ends on a loop in the data', () => {
    expect(pathToRoot(parentIdOf, 'orphan')).toEqual(['orphan']);
    const loop = new Map([
      ['loop1', 'loop2'],
      ['loop2', 'loop1'],
    ]);
    expect(pathToRoot((id) => loop.get(id), 'loop1')).toEqual(['loop1', 'loop2']);
  });
});

describe('buildTree', () => {
  it('nests records and orders siblings by the comparison, then by id', () => {
    const tree = buildTree(
      [
        row('c2', 'root', 1, 'Zeta'),
        row('c1', 'root', 1, 'Alpha'),
        row('c0', 'root', 0, 'Omega'),
        row('c3', 'root', 10, 'Beta'),
        row('root', null),
        row('g2', 'c1', 0, 'Same'),
        row('g1', 'c1', 0, 'Same'),
      ],
      order,
    );
    expect(tree.map((n) => n.id)).toEqual(['root']);
    expect(tree[0]!.children.map((n) => n.name)).toEqual(['Omega', 'Alpha', 'Zeta', 'Beta']);
    expect(tree[0]!.children[1]!.children.map((n) => n.id)).toEqual(['g1', 'g2']);
    expect(tree[0]!.children[0]!.children).toEqual([]);
  });

  it('keeps records with a missing parent or in a loop at the top level', () => {
    const tree = buildTree([row('orphan', 'gone'), row('p', 'q'), row('q', 'p')], order);
    expect(tree.map((n) => n.id).sort()).toEqual(['orphan', 'p', 'q']);
  });

  it('keeps the fields of each record', () => {
    expect(buildTree([row('a', null, 3, 'A')], order)).toEqual([
      { id: 'a', parentId: null, sortIndex: 3, name: 'A', children: [] },
    ]);
  });
});
