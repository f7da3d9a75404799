import { describe, expect, it } from 'vitest';
import type { CellValue } from './import-cells.ts';
import { type KeyRefs, parseKeyRows, resolveKeyRows } from './import-keys.ts';
import type { SheetRow } from './import-rows.ts';

const sheet = (...records: Record<string, CellValue>[]): SheetRow[] =>
  records.map((cells, i) => ({ row: i + 2, cells: new Map(Object.entries(cells)) }));

const refs: KeyRefs = {
  departments: new Map([['maintenance', ['d1']]]),
  staff: new Map([['alice', 's1']]),
  takenCodes: new Set(['k-used']),
};

describe('key rows', () => {
  it('resolve the holder and the department by name', () => {
    const { parsed, issues } = parseKeyRows(
      sheet({ name: 'Key 1', code: 'K-1', staffName: 'Alice', deptName: 'maintenance', desc: 'spare' }),
    );
    expect(issues).toEqual([]);
    expect(resolveKeyRows(parsed, refs)).toEqual({
      issues: [],
      accepted: [
        {
          // An imported key is in use.
          form: { name: 'Key 1', code: 'K-1', staffId: null, deptId: null, desc: 'spare', state: 'normal' },
          staffId: 's1',
          deptId: 'd1',
        },
      ],
    });
  });

  it('compare codes ignoring case, in the file and in the ledger', () => {
    const { parsed, issues } = parseKeyRows(
      sheet(
        { name: 'A', code: 'K-2' },
        { name: 'B', code: 'k-2' },
        { name: 'C', code: 'K-USED', staffName: 'nobody' },
        { name: '', code: 'bad code!' },
      ),
    );
    expect(issues).toEqual([
      { row: 5, column: 'name', key: 'v.required' },
      { row: 5, column: 'code', key: 'v.code' },
    ]);
    expect(resolveKeyRows(parsed, refs).issues).toEqual([
      { row: 3, column: 'code', key: 'import.duplicateInFile', params: { row: 2 } },
      { row: 4, column: 'staffName', key: 'import.staffNotFound' },
      { row: 4, column: 'code', key: 'import.taken' },
    ]);
  });
});
