import { changePasswordForm, type Lang, loginForm, myInfoForm } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldIssue, translateIssue } from './schema-rules.ts';

const messageOf = (
  schema: Parameters<typeof fieldIssue>[0],
  values: unknown,
  field: string,
  lang: Lang = 'en',
) => {
  const issue = fieldIssue(schema, values, field);
  return issue && translateIssue(issue, lang);
};

describe('shared schemas in forms', () => {
  it('translates the validation keys of the contracts', () => {
    expect(messageOf(loginForm, { name: '  ', pwd: 'x' }, 'name')).toBe('Enter the username');
    expect(messageOf(loginForm, { name: 'a' }, 'pwd')).toBe('Enter the password');
    expect(messageOf(loginForm, { name: 'a', pwd: 'x' }, 'name')).toBeUndefined();
    expect(messageOf(myInfoForm, { email: '' }, 'email', 'zh-CN')).toBe('此项为必填项');
  });

  it('fills the parameters of a key', () => {
    expect(messageOf(loginForm, { name: 'a'.repeat(65), pwd: 'x' }, 'name')).toBe('At most 64 characters');
  });

  it('fills the parameters a refinement gives', () => {
    const form = z.object({ formatMsg: z.string() }).refine(() => false, {
      path: ['formatMsg'],
      message: 'v.formatMsg.unknownProp',
      params: { code: 'rssi' },
    });
    expect(messageOf(form, { formatMsg: '{prop:rssi}' }, 'formatMsg', 'zh-TW')).toBe(
      '佔位符 {prop:rssi} 所指的屬性不在本規則的條件中',
    );
  });

  it('gives a translated text for issues without a key', () => {
    expect(messageOf(myInfoForm, { email: `${'a'.repeat(130)}@x.cn` }, 'email')).toBe(
      'At most 128 characters',
    );
    expect(messageOf(myInfoForm, { email: 'not-an-email' }, 'email')).toBe('Enter a valid email address');
  });

  it('reports cross-field rules on the right field', () => {
    const values = { oldPwd: 'Secret123', newPwd: 'Secret123', confirmPwd: 'Other1234' };
    expect(messageOf(changePasswordForm, values, 'newPwd')).toBe(
      'The new password must differ from the old one',
    );
    expect(messageOf(changePasswordForm, values, 'confirmPwd')).toBe('The two passwords do not match');
    expect(messageOf(changePasswordForm, { ...values, newPwd: 'weakpass' }, 'newPwd')).toBe(
      'At least 8 characters with upper case, lower case and digits',
    );
    expect(messageOf(myInfoForm, { email: 'a@b.cn', telNo: '12345' }, 'telNo')).toBe(
      'Enter a valid mobile phone number',
    );
  });
});
