import { ADMIN_STAFF_ID } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { passwordChangeRequired } from './password-change-rule.ts';

describe('passwordChangeRequired', () => {
  it('holds a user with the initial password while the parameter is on', () => {
    expect(passwordChangeRequired('s1', true, 'true')).toBe(true);
  });

  it('lets a user through who has changed the password', () => {
    expect(passwordChangeRequired('s1', false, 'true')).toBe(false);
  });

  it('lets everyone through while the parameter is off, empty or missing', () => {
    for (const value of ['false', '', 'TRUE', 'yes', null, undefined]) {
      expect(passwordChangeRequired('s1', true, value), String(value)).toBe(false);
    }
  });

  it('never holds the built-in administrator', () => {
    expect(passwordChangeRequired(ADMIN_STAFF_ID, true, 'true')).toBe(false);
  });
});
