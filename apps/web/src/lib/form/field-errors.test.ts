import { describe, expect, it } from 'vitest';
import { fieldErrorsOf, hasNamePath, issueNamePath } from './field-errors.ts';

describe('server field errors on form fields', () => {
  const values = { name: 'x', val: undefined, roleIds: ['a', 'b'], nested: { code: '' } };
  const isField = (name: (string | number)[]) => hasNamePath(values, name);

  it('turns issue paths into name paths, indexes as numbers', () => {
    expect(issueNamePath('name')).toEqual(['name']);
    expect(issueNamePath('roleIds.1')).toEqual(['roleIds', 1]);
    expect(issueNamePath('nested.code')).toEqual(['nested', 'code']);
    expect(issueNamePath('')).toEqual([]);
  });

  it('puts issues on the fields of the form, grouped by field, without repeats', () => {
    const result = fieldErrorsOf(
      [
        { path: 'val', message: 'Enter valid JSON' },
        { path: 'name', message: 'Too long' },
        { path: 'val', message: 'Too long' },
        { path: 'val', message: 'Enter valid JSON' },
        { path: 'roleIds.1', message: 'Unknown role' },
        { path: 'nested.code', message: 'Taken' },
      ],
      isField,
    );
    expect(result.fields).toEqual([
      { name: ['val'], errors: ['Enter valid JSON', 'Too long'] },
      { name: ['name'], errors: ['Too long'] },
      { name: ['roleIds', 1], errors: ['Unknown role'] },
      { name: ['nested', 'code'], errors: ['Taken'] },
    ]);
    expect(result.others).toEqual([]);
  });

  it('keeps apart issues about no field of the form and about the whole form', () => {
    const result = fieldErrorsOf(
      [
        { path: 'id', message: 'Invalid' },
        { path: '', message: 'Invalid input' },
        { path: 'name', message: 'Taken' },
      ],
      isField,
    );
    expect(result.fields).toEqual([{ name: ['name'], errors: ['Taken'] }]);
    expect(result.others.map((issue) => issue.path)).toEqual(['id', '']);
  });

  it('sees registered fields whose value is undefined', () => {
    expect(hasNamePath(values, ['val'])).toBe(true);
    expect(hasNamePath(values, ['missing'])).toBe(false);
    expect(hasNamePath(values, ['nested', 'code'])).toBe(true);
    expect(hasNamePath(values, ['name', 'x'])).toBe(false);
  });
});
