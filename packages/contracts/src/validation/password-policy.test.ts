import { describe, expect, it } from 'vitest';
import { isValidationMessageKey } from './messages.ts';
import { hasSequence, passwordProblemMessage, passwordProblems } from './password-policy.ts';

describe('the strong password policy (spec §5)', () => {
  it('accepts a long password of several classes with no forbidden part', () => {
    expect(passwordProblems('Kx9#mPq2vL', 'chan.taiman')).toEqual([]);
    expect(passwordProblems('Harbour-Light-47', 'wong')).toEqual([]);
  });

  it('needs at least 8 characters', () => {
    expect(passwordProblems('Kx9#mPq', 'lee')).toContain('tooShort');
    expect(passwordProblems('Kx9#mPq2', 'lee')).not.toContain('tooShort');
  });

  it('needs three of the four classes', () => {
    expect(passwordProblems('kxmpqzvlwr', 'lee')).toContain('fewClasses');
    expect(passwordProblems('kxmpq97zvl', 'lee')).toContain('fewClasses');
    expect(passwordProblems('Kxmpq97zvl', 'lee')).not.toContain('fewClasses');
    expect(passwordProblems('kxmpq#7zvl', 'lee')).not.toContain('fewClasses');
    expect(passwordProblems('KXMP#Q$ZVL', 'lee')).toContain('fewClasses');
  });

  it('refuses the user name inside, whatever its case', () => {
    expect(passwordProblems('Xx-ChanTaiman-9', 'chantaiman')).toContain('containsUserName');
    expect(passwordProblems('Xx-Harbour-9', 'chantaiman')).not.toContain('containsUserName');
  });

  it('refuses runs like 123, abc and ABC, ascending or descending', () => {
    for (const password of [
      'Kx#123mPqz',
      'Kx#9abmPqz'.replace('9ab', 'abc'),
      'kx#9ABCpqz',
      'Kx#321mPqz',
      'Kx#zyxmPq9',
    ]) {
      expect(passwordProblems(password, 'lee'), password).toContain('sequence');
    }
    expect(passwordProblems('Kx9#mPq2vL', 'lee')).not.toContain('sequence');
  });

  it('refuses default user names such as admin and root', () => {
    expect(passwordProblems('Xq#Admin-97', 'lee')).toContain('defaultUserName');
    expect(passwordProblems('Xq#rooT-97z', 'lee')).toContain('defaultUserName');
    expect(passwordProblems('Xq#Harbour-97', 'lee')).not.toContain('defaultUserName');
  });

  it('refuses the most common passwords, also with digits or symbols added', () => {
    expect(passwordProblems('P@ssw0rd', 'lee')).toContain('common');
    expect(passwordProblems('Welcome123', 'lee')).toContain('common');
    expect(passwordProblems('Qwertyuiop!', 'lee')).toContain('common');
    expect(passwordProblems('Kx9#mPq2vL', 'lee')).not.toContain('common');
  });

  it('has a translatable message for every problem', () => {
    for (const key of Object.values(passwordProblemMessage))
      expect(isValidationMessageKey(key), key).toBe(true);
  });
});

describe('hasSequence', () => {
  it('finds three consecutive digits or letters and nothing shorter or mixed', () => {
    expect(hasSequence('x789y')).toBe(true);
    expect(hasSequence('xXYZ')).toBe(true);
    expect(hasSequence('xy8')).toBe(false);
    expect(hasSequence('a1b2c3')).toBe(false);
    expect(hasSequence('135')).toBe(false);
    expect(hasSequence('9:;')).toBe(false);
  });
});
