import { describe, expect, it } from 'vitest';
import { changePasswordForm, meetsPasswordRule, PASSWORD_MIN_LENGTH } from './password.ts';

/** Field path → message key of every issue of a failed parse. */
function issues(input: unknown): Record<string, string[]> {
  const result = changePasswordForm.safeParse(input);
  if (result.success) return {};
  const byPath: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.join('.');
    byPath[path] = [...(byPath[path] ?? []), issue.message];
  }
  return byPath;
}

describe('meetsPasswordRule', () => {
  it('accepts 8 or more characters with upper case, lower case and a digit', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(8);
    expect(meetsPasswordRule('Abcdefg1')).toBe(true);
    expect(meetsPasswordRule('1234567aB')).toBe(true);
    expect(meetsPasswordRule('Pass-Word 2026!')).toBe(true);
  });

  it('rejects fewer than 8 characters', () => {
    expect(meetsPasswordRule('Abcdef1')).toBe(false);
    expect(meetsPasswordRule('')).toBe(false);
  });

  it('rejects a password missing upper case, lower case or digits', () => {
    expect(meetsPasswordRule('abcdefg1')).toBe(false);
    expect(meetsPasswordRule('ABCDEFG1')).toBe(false);
    expect(meetsPasswordRule('Abcdefgh')).toBe(false);
    expect(meetsPasswordRule('12345678')).toBe(false);
  });
});

describe('changePasswordForm', () => {
  const valid = { oldPwd: 'Old-Pass-1', newPwd: 'New-Pass-2', confirmPwd: 'New-Pass-2' };

  it('accepts a valid change', () => {
    expect(changePasswordForm.parse(valid)).toEqual(valid);
  });

  it('requires every field, each with its own message', () => {
    expect(issues({})).toEqual({
      oldPwd: ['v.oldPassword'],
      newPwd: ['v.newPassword'],
      confirmPwd: ['v.confirmPassword'],
    });
    expect(issues({ oldPwd: '', newPwd: '', confirmPwd: '' })).toMatchObject({
      oldPwd: ['v.oldPassword'],
      newPwd: expect.arrayContaining(['v.newPassword']),
      confirmPwd: ['v.confirmPassword'],
    });
  });

  it.each([
    ['shorter than 8', 'Abcde12'],
    ['without upper case', 'abcdefg12'],
    ['without lower case', 'ABCDEFG12'],
    ['without a digit', 'Abcdefghij'],
  ])('rejects a new password %s', (_label, newPwd) => {
    expect(issues({ ...valid, newPwd, confirmPwd: newPwd })).toEqual({ newPwd: ['v.passwordRule'] });
  });

  it('rejects a new password equal to the old one', () => {
    expect(issues({ oldPwd: 'Same-Pass-1', newPwd: 'Same-Pass-1', confirmPwd: 'Same-Pass-1' })).toEqual({
      newPwd: ['v.passwordSameAsOld'],
    });
  });

  it('rejects a confirmation that differs from the new password', () => {
    expect(issues({ ...valid, confirmPwd: 'New-Pass-3' })).toEqual({ confirmPwd: ['v.passwordMismatch'] });
  });

  it('rejects over-long passwords with the length message', () => {
    const long = `Aa1${'x'.repeat(200)}`;
    expect(issues({ ...valid, newPwd: long, confirmPwd: long }).newPwd).toContain('v.tooLong');
    expect(issues({ ...valid, oldPwd: long }).oldPwd).toEqual(['v.tooLong']);
    expect(issues({ ...valid, confirmPwd: long }).confirmPwd).toContain('v.tooLong');
  });
});
