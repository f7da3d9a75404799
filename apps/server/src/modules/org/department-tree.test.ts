import { describe, expect, it } from 'vitest';
import { buildDepartmentTree, type DepartmentRecord } from './department-tree.ts';

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
