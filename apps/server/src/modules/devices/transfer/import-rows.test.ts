import { describe, expect, it } from 'vitest';
import { importErrors, missingColumnIssues, type RowIssue, resolvePerson } from './import-rows.ts';
import { DEVICE_COLUMNS } from './import-sheets.ts';

describe('import problems', () => {
  it('are answered by row then column, with titles and reasons in the language asked', () => {
    const issues: RowIssue[] = [
      { row: 3, column: 'imei', key: 'v.imei' },
      { row: 2, column: null, key: 'import.noRows' },
      { row: 3, column: 'name', key: 'v.tooLong', params: { max: 64 } },
      { row: 3, column: 'code', key: 'import.duplicateInFile', params: { row: 2 } },
    ];
    expect(importErrors(issues, DEVICE_COLUMNS, 'en')).toEqual([
      { row: 2, column: null, message: 'The file has no rows to import' },
      { row: 3, column: 'Name', message: 'At most 64 characters' },
      { row: 3, column: 'Device code', message: 'Same as row 2' },
      { row: 3, column: 'IMEI', message: 'The IMEI must be exactly 15 digits' },
    ]);
    expect(importErrors(issues, DEVICE_COLUMNS, 'zh-CN')[2]).toEqual({
      row: 3,
      column: '设备编码',
      message: '与第 2 行重复',
    });
    expect(importErrors(issues, DEVICE_COLUMNS, 'zh-TW')[2]!.message).toBe('與第 2 列重複');
  });

  it('name the required columns a header lacks', () => {
    expect(missingColumnIssues(DEVICE_COLUMNS, new Set(['name', 'imei']))).toEqual([
      { row: 1, column: 'unitPath', key: 'import.missingColumn' },
      { row: 1, column: 'typeCode', key: 'import.missingColumn' },
    ]);
  });

  it('find departments and staff by name, ignoring case', () => {
    const refs = { departments: new Map([['ops', ['d1']]]), staff: new Map([['bob', 's1']]) };
    expect(resolvePerson(refs, 'department', 2, 'deptName', ' OPS ')).toEqual({ id: 'd1' });
    expect(resolvePerson(refs, 'staff', 2, 'staffName', 'Bob')).toEqual({ id: 's1' });
    expect(resolvePerson(refs, 'staff', 2, 'staffName', '')).toEqual({ id: null });
  });
});
