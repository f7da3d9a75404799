import { describe, expect, it } from 'vitest';
import type { CellValue } from './import-cells.ts';
import type { SheetRow } from './import-rows.ts';
import { parseUnitRows, resolveUnitRows, siblingKey, type UnitRefs } from './import-units.ts';

const sheet = (...records: Record<string, CellValue>[]): SheetRow[] =>
  records.map((cells, i) => ({ row: i + 2, cells: new Map(Object.entries(cells)) }));

const refs: UnitRefs = {
  paths: new Map([['line 1', { id: 'L1' }]]),
  siblingNames: new Set([siblingKey(null, 'Line 1'), siblingKey('L1', 'Depot')]),
};

function ids() {
  let n = 0;
  return () => `new${++n}`;
}

describe('unit rows', () => {
  it('hang under units of the tree or of earlier rows', () => {
    const { parsed, issues } = parseUnitRows(
      sheet(
        { name: 'Station A', parentPath: 'line 1', sortIndex: 2, menuName: 'A' },
        { name: 'Room 1', parentPath: ' Line 1 / STATION A ' },
        { name: 'Line 2', sortIndex: '' },
      ),
    );
    expect(issues).toEqual([]);
    expect(resolveUnitRows(parsed, refs, ids())).toEqual({
      issues: [],
      accepted: [
        {
          id: 'new1',
          parentId: 'L1',
          form: expect.objectContaining({ name: 'Station A', sortIndex: 2, menuName: 'A' }),
        },
        { id: 'new2', parentId: 'new1', form: expect.objectContaining({ name: 'Room 1', parentId: 'new1' }) },
        { id: 'new3', parentId: null, form: expect.objectContaining({ name: 'Line 2', sortIndex: 0 }) },
      ],
    });
  });

  it('refuse unknown or later parents and names taken among siblings', () => {
    const { parsed, issues } = parseUnitRows(
      sheet(
        { name: 'Room', parentPath: 'Line 1/Later' },
        { name: 'Later', parentPath: 'Line 1' },
        { name: 'depot', parentPath: 'Line 1' },
        { name: 'LATER', parentPath: 'line 1' },
        { name: 'line 1' },
        { name: 'Bad order', sortIndex: -1 },
      ),
    );
    expect(issues).toEqual([{ row: 7, column: 'sortIndex', key: 'v.integer' }]);
    expect(resolveUnitRows(parsed, refs, ids()).issues).toEqual([
      { row: 2, column: 'parentPath', key: 'import.parentNotFound' },
      { row: 4, column: 'name', key: 'import.unitNameTaken' },
      { row: 5, column: 'name', key: 'import.duplicateInFile', params: { row: 3 } },
      { row: 6, column: 'name', key: 'import.unitNameTaken' },
    ]);
  });
});
