import { describe, expect, it } from 'vitest';
import { formatMessage, ResultCode, resultCodeName, resultMessages, translateResult } from './codes.ts';
import { LANGUAGES } from './lang.ts';

describe('result codes', () => {
  it('are unique numbers', () => {
    const codes = Object.values(ResultCode);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('have a non-empty message in every language, and no message for an unknown name', () => {
    expect(Object.keys(resultMessages).sort()).toEqual(Object.keys(ResultCode).sort());
    for (const [name, code] of Object.entries(ResultCode)) {
      for (const lang of LANGUAGES) {
        const text = translateResult(code, lang);
        expect(text?.trim(), `${name} in ${lang}`).toBeTruthy();
      }
    }
  });

  it('use the same parameters in every language', () => {
    const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [name, messages] of Object.entries(resultMessages)) {
      const expected = params(messages['zh-CN']);
      for (const lang of LANGUAGES) expect(params(messages[lang]), `${name} in ${lang}`).toEqual(expected);
    }
  });

  it('map back to their names', () => {
    expect(resultCodeName(ResultCode.LoginFailed)).toBe('LoginFailed');
    expect(resultCodeName(1001)).toBe('LoginFailed');
    expect(resultCodeName(999_999)).toBeUndefined();
    expect(translateResult(999_999, 'en')).toBeUndefined();
  });

  it('translate into the requested language', () => {
    expect(translateResult(ResultCode.LoginFailed, 'zh-CN')).toBe('用户名或密码错误');
    expect(translateResult(ResultCode.LoginFailed, 'en')).toBe('Incorrect username or password');
    expect(translateResult(ResultCode.LoginFailed, 'zh-TW')).toBe('用戶名稱或密碼錯誤');
  });
});

describe('formatMessage', () => {
  it('fills parameters', () => {
    expect(formatMessage('try again in {seconds} s', { seconds: 30 })).toBe('try again in 30 s');
    expect(formatMessage('{a}-{b}-{a}', { a: 'x', b: 2 })).toBe('x-2-x');
    expect(translateResult(ResultCode.LoginLocked, 'en', { seconds: 12 })).toBe(
      'Too many failed sign-in attempts, please try again in 12 s',
    );
    expect(translateResult(ResultCode.LoginLocked, 'zh-CN', { seconds: 12 })).toBe(
      '登录失败次数过多，请 12 秒后再试',
    );
  });

  it('leaves unknown parameters in place and ignores extra ones', () => {
    expect(formatMessage('at most {max} characters')).toBe('at most {max} characters');
    expect(formatMessage('at most {max} characters', { other: 1 })).toBe('at most {max} characters');
    expect(formatMessage('plain', { max: 3 })).toBe('plain');
  });

  it('does not treat parameter values as templates', () => {
    expect(formatMessage('{a} {b}', { a: '{b}', b: 'B' })).toBe('{b} B');
    expect(formatMessage('{a}', { a: '$&$1' })).toBe('$&$1');
  });
});
