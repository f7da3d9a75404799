import { IMPORT_MAX_BYTES, ResultCode } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { importErrorsOf, importFailureOutcome, importFileProblem } from './import-outcome.ts';

describe('importFileProblem', () => {
  it('takes .xlsx files up to the size the server accepts', () => {
    expect(importFileProblem({ name: 'units.xlsx', size: 1024 })).toBeNull();
    expect(importFileProblem({ name: 'KEYS.XLSX', size: IMPORT_MAX_BYTES })).toBeNull();
  });

  it('refuses other types, empty and too large files', () => {
    expect(importFileProblem({ name: 'units.xls', size: 1024 })).toBe('type');
    expect(importFileProblem({ name: 'units.csv', size: 1024 })).toBe('type');
    expect(importFileProblem({ name: 'xlsx', size: 1024 })).toBe('type');
    expect(importFileProblem({ name: 'units.xlsx', size: 0 })).toBe('empty');
    expect(importFileProblem({ name: 'units.xlsx', size: IMPORT_MAX_BYTES + 1 })).toBe('size');
  });
});

describe('importErrorsOf', () => {
  const errors = [
    { row: 4, column: 'Code', message: 'Already exists in the system' },
    { row: 2, column: null, message: 'Same as row 3' },
  ];

  it('reads a list, or one under `errors`, sorted by row', () => {
    const sorted = [errors[1], errors[0]];
    expect(importErrorsOf(errors)).toEqual(sorted);
    expect(importErrorsOf({ errors })).toEqual(sorted);
  });

  it('leaves out what is not an error entry', () => {
    expect(importErrorsOf([{ row: 'x' }, null, 3, errors[0]])).toEqual([errors[0]]);
    expect(importErrorsOf(null)).toEqual([]);
    expect(importErrorsOf('oops')).toEqual([]);
  });
});

describe('importFailureOutcome', () => {
  it('shows the errors of a refused file (1140) with the server message', () => {
    expect(
      importFailureOutcome({
        code: ResultCode.ImportInvalid,
        serverMessage: 'The file has 1 errors; nothing was imported',
        data: [{ row: 3, column: 'Name', message: 'Required' }],
      }),
    ).toEqual({
      kind: 'invalid',
      message: 'The file has 1 errors; nothing was imported',
      errors: [{ row: 3, column: 'Name', message: 'Required' }],
    });
  });

  it('shows an unreadable file (1141) with its message, and leaves other failures to the generic text', () => {
    expect(importFailureOutcome({ code: ResultCode.ImportUnreadable, serverMessage: 'Cannot read' })).toEqual(
      {
        kind: 'unreadable',
        message: 'Cannot read',
      },
    );
    expect(importFailureOutcome({ code: ResultCode.Forbidden, serverMessage: 'No' })).toBeNull();
    expect(importFailureOutcome({})).toBeNull();
  });
});
