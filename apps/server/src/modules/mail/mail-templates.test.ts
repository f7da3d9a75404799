import { LANGUAGES } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { MAIL_TEMPLATES, mailTemplates } from './mail-templates.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('mail templates', () => {
  it('exist in every language with the same parameters', () => {
    for (const [name, template] of Object.entries(MAIL_TEMPLATES)) {
      for (const part of ['subject', 'text'] as const) {
        const reference = placeholders(template[part].en);
        for (const lang of LANGUAGES) {
          expect(template[part][lang], `${name}.${part}.${lang}`).toBeTruthy();
          expect(placeholders(template[part][lang]), `${name}.${part}.${lang}`).toEqual(reference);
        }
      }
    }
  });

  it('differ between the languages', () => {
    for (const template of Object.values(MAIL_TEMPLATES)) {
      expect(new Set(LANGUAGES.map((l) => template.text[l])).size).toBe(3);
      expect(new Set(LANGUAGES.map((l) => template.subject[l])).size).toBe(3);
    }
  });

  it('write the verification code and its validity', () => {
    const en = mailTemplates.verificationCode('en', { code: 'K7Q2ZP', minutes: 10 });
    expect(en.subject).toBe('Your UIOT Lock Console verification code');
    expect(en.text).toContain('Your verification code is: K7Q2ZP\n');
    expect(en.text).toContain('valid for 10 minutes');
    const zhCN = mailTemplates.verificationCode('zh-CN', { code: 'K7Q2ZP', minutes: 10 });
    expect(zhCN.subject).toBe('UIOT 锁控管理平台注册验证码');
    expect(zhCN.text).toContain('验证码为：K7Q2ZP');
    expect(zhCN.text).toContain('10 分钟内有效');
    expect(mailTemplates.verificationCode('zh-TW', { code: 'K7Q2ZP', minutes: 10 }).text).toContain(
      '驗證碼為：K7Q2ZP',
    );
  });

  it('tell the registrant the outcome, with the remark of a rejection when there is one', () => {
    const approved = mailTemplates.registrationApproved('en', { name: 'S1234' });
    expect(approved.subject).toBe('Your UIOT Lock Console registration was approved');
    expect(approved.text).toContain('Hello S1234,');
    const rejected = mailTemplates.registrationRejected('zh-TW', { name: 'A123456', remark: '資料不全' });
    expect(rejected.subject).toBe('UIOT 鎖控管理平台帳號註冊未通過');
    expect(rejected.text).toContain('審核意見：資料不全');
    const bare = mailTemplates.registrationRejected('en', { name: 'A123456', remark: null });
    expect(bare.text).toContain('was not approved');
    expect(bare.text).not.toContain('Remark');
    expect(mailTemplates.registrationRejected('en', { name: 'A', remark: '' }).text).toBe(
      bare.text.replace('A123456', 'A'),
    );
  });

  it('leave no parameter unfilled, and do not expand braces in what the user wrote', () => {
    const texts = [
      mailTemplates.verificationCode('zh-CN', { code: 'AAAAAA', minutes: 10 }),
      mailTemplates.registrationApproved('zh-TW', { name: 'n' }),
      mailTemplates.registrationRejected('en', { name: '{remark}', remark: 'see {name}' }),
    ];
    expect(texts[2]!.text).toContain('Hello {remark},');
    expect(texts[2]!.text).toContain('Remark of the reviewer: see {name}');
    for (const { subject, text } of texts.slice(0, 2)) expect(`${subject}${text}`).not.toMatch(/\{\w+\}/);
  });
});
