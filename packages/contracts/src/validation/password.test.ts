import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  changePasswordForm,
  changePasswordFormFor,
  changePasswordRequest,
  meetsPasswordRule,
  PASSWORD_MIN_LENGTH,
  passwordIssueKeys,
} from './password.ts';

/** The dialog's form with StrongPassword off: the change-password rule. */
const basicForm = changePasswordForm;

/** Field path → message key of every issue of a failed parse. */
function issues(input: unknown, schema: z.ZodType = basicForm): Record<string, string[]> {
  const result = schema.safeParse(input);
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
    // The request leaves the rule to the server, which knows StrongPassword and the user.
    expect(changePasswordRequest.parse({ ...valid, newPwd: 'x', confirmPwd: 'x' }).newPwd).toBe('x');
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

describe('the rule of a chosen password', () => {
  const strong = { strong: true, userName: 'chan.taiman' };

  it('is the strong policy while StrongPassword is on, as for a new staff member (finding: Abcdefg1)', () => {
    expect(passwordIssueKeys('Abcdefg1', strong)).toEqual(['v.pwSequence']);
    expect(passwordIssueKeys('Password1', strong)).toEqual(['v.pwCommon']);
    expect(passwordIssueKeys('Xx-Chan.Taiman-9', strong)).toEqual(['v.pwContainsUserName']);
    expect(passwordIssueKeys('Harbour-Light-47', strong)).toEqual([]);
    // Three classes of four are enough under the strong policy, upper case or not.
    expect(passwordIssueKeys('harbour-light-47', strong)).toEqual([]);
  });

  it('is the change-password rule otherwise', () => {
    expect(passwordIssueKeys('Abcdefg1', { strong: false, userName: 'lee' })).toEqual([]);
    expect(passwordIssueKeys('harbour-light-47', { strong: false, userName: 'lee' })).toEqual([
      'v.passwordRule',
    ]);
  });

  it('is what the change-password dialog says under the policy, each problem on the new password', () => {
    const form = changePasswordFormFor(strong);
    const change = (newPwd: string) => issues({ oldPwd: 'Old-Pass-1', newPwd, confirmPwd: newPwd }, form);
    expect(change('Abcdefg1')).toEqual({ newPwd: ['v.pwSequence'] });
    expect(change('Password1')).toEqual({ newPwd: ['v.pwCommon'] });
    expect(change('admin1234')).toEqual({
      newPwd: ['v.pwFewClasses', 'v.pwSequence', 'v.pwDefaultUserName'],
    });
    expect(change('Harbour-Light-47')).toEqual({});
    // Told while the other fields are still empty.
    expect(issues({ newPwd: 'Password1' }, form).newPwd).toEqual(['v.pwCommon']);
    // The old password again is told just that, whatever the policy says of it.
    const lee = changePasswordFormFor({ strong: true, userName: 'lee' });
    expect(issues({ oldPwd: 'Lee-Pass-1', newPwd: 'Lee-Pass-1', confirmPwd: 'Lee-Pass-1' }, lee)).toEqual({
      newPwd: ['v.passwordSameAsOld'],
    });
  });
});
