import { describe, expect, it } from 'vitest';
import { buildDepartmentTree, type DepartmentRecord, wouldCreateCycle } from './department-tree.ts';

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
  it('refuses a department as its own parent', () => {
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

const record = (id: string, parentId: string | null, idxNo = 0, name = id): DepartmentRecord => ({
  id,
  name,
  code: null,
  deptType: 'Electric',
  description: null,
  idxNo,
  parentId,
  staffCount: 0,
});

describe('buildDepartmentTree', () => {
  it('nests departments and orders siblings by idxNo, then name', () => {
    const tree = buildDepartmentTree([
      record('c2', 'root', 1, 'Zeta'),
      record('c1', 'root', 1, 'Alpha'),
      record('c0', 'root', 0, 'Omega'),
      record('root', null),
      record('g', 'c1'),
    ]);
    expect(tree.map((n) => n.id)).toEqual(['root']);
    expect(tree[0]!.children.map((n) => n.name)).toEqual(['Omega', 'Alpha', 'Zeta']);
    expect(tree[0]!.children[1]!.children.map((n) => n.id)).toEqual(['g']);
  });

  it('keeps departments with a missing parent or in a loop at the top level', () => {
    const tree = buildDepartmentTree([record('orphan', 'gone'), record('p', 'q'), record('q', 'p')]);
    expect(tree.map((n) => n.id).sort()).toEqual(['orphan', 'p', 'q']);
  });
});
