import { describe, expect, it } from 'vitest';
import { email, MAINLAND_MOBILE, optionalMobile, requiredText } from './formats.ts';

describe('mainland mobile number', () => {
  it.each(['13800138000', '19912345678', '15000000000', '17712345678'])('accepts %s', (value) => {
    expect(MAINLAND_MOBILE.test(value)).toBe(true);
    expect(optionalMobile.safeParse(value).success).toBe(true);
  });

  it.each([
    '12800138000', // second digit 2
    '10800138000',
    '1380013800', // 10 digits
    '138001380001', // 12 digits
    '23800138000',
    '+8613800138000',
    '138-0013-8000',
    '1380013800a',
    ' 1380013800 ',
  ])('rejects %j', (value) => {
    expect(MAINLAND_MOBILE.test(value)).toBe(false);
    const result = optionalMobile.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['v.mobile']);
  });

  it('is optional: absent or empty is accepted, surrounding spaces are trimmed', () => {
    expect(optionalMobile.parse(undefined)).toBeUndefined();
    expect(optionalMobile.parse('')).toBe('');
    expect(optionalMobile.parse(' 13800138000 ')).toBe('13800138000');
  });
});

describe('email', () => {
  it.each(['a@b.cn', 'first.last+tag@example.com', 'x_y@sub.domain.org'])('accepts %s', (value) => {
    expect(email.parse(value)).toBe(value);
  });

  it('trims spaces', () => {
    expect(email.parse('  a@b.cn ')).toBe('a@b.cn');
  });

  it.each(['plain', 'a@', '@b.cn', 'a b@c.cn', 'a@b', 'a@@b.cn'])('rejects %j as v.email', (value) => {
    const result = email.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['v.email']);
  });

  it.each(['', '   ', undefined])('requires a value (%j)', (value) => {
    const result = email.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['v.required']);
  });

  it('rejects an over-long address as too long', () => {
    const result = email.safeParse(`${'a'.repeat(130)}@b.cn`);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['v.tooLong']);
  });
});

describe('requiredText', () => {
  it('trims and requires a value with its own key', () => {
    expect(requiredText('v.username').parse('  alice ')).toBe('alice');
    expect(
      requiredText('v.username')
        .safeParse('   ')
        .error?.issues.map((i) => i.message),
    ).toEqual(['v.username']);
    expect(
      requiredText('v.username', 4)
        .safeParse('abcde')
        .error?.issues.map((i) => i.message),
    ).toEqual(['v.tooLong']);
  });
});
