import type { DepartmentNode } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { departmentMatches, departmentOptions } from './department-tree.ts';

const node = (id: string, children: DepartmentNode[] = [], code: string | null = null): DepartmentNode => ({
  id,
  name: `Dept ${id}`,
  code,
  deptType: 'Electric',
  description: null,
  idxNo: 0,
  parentId: null,
  staffCount: 0,
  children,
});

const TREE = [node('a', [node('a1', [node('a1x')]), node('a2')]), node('b')];

describe('departmentOptions', () => {
  it('turns the tree into tree-select options', () => {
    expect(departmentOptions([node('a', [node('a1')])])).toEqual([
      { value: 'a', title: 'Dept a', children: [{ value: 'a1', title: 'Dept a1' }] },
    ]);
  });

  it('leaves out the department being edited and everything below it', () => {
    const ids = (options: ReturnType<typeof departmentOptions>): string[] =>
      options.flatMap((o) => [o.value, ...ids(o.children ?? [])]);
    expect(ids(departmentOptions(TREE, 'a1'))).toEqual(['a', 'a2', 'b']);
    expect(ids(departmentOptions(TREE, 'a'))).toEqual(['b']);
  });
});

describe('departmentMatches', () => {
  it('matches the name or the code, ignoring case; a blank search matches all', () => {
    expect(departmentMatches(node('x', [], 'KT-01'), 'kt')).toBe(true);
    expect(departmentMatches(node('x'), 'DEPT X')).toBe(true);
    expect(departmentMatches(node('x'), 'nope')).toBe(false);
    expect(departmentMatches(node('x'), '  ')).toBe(true);
  });
});
