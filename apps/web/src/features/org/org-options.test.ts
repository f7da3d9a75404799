import { LANGUAGES } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../lib/i18n/i18n.ts';
import { roleDescription, roleOptions } from './org-options.ts';

describe('roleOptions', () => {
  it('offers the roles the server says the user may assign, and shows the others disabled', () => {
    expect(
      roleOptions([
        { id: 'r1', name: 'Operators', assignable: true },
        { id: 'admin', name: 'admin', assignable: false },
      ]),
    ).toEqual([
      { value: 'r1', label: 'Operators', disabled: false },
      { value: 'admin', label: 'admin', disabled: true },
    ]);
  });
});

describe('roleDescription', () => {
  // As the server stores it (admin-account.ts): English, whoever reads it.
  const admin = { builtIn: true, description: 'Built-in administrator role: every permission' };

  it("shows the built-in administrator role's description in the reader's language", () => {
    const shown = LANGUAGES.map((lang) => roleDescription(i18n.getFixedT(lang, 'org'), admin));
    expect(new Set(shown).size).toBe(LANGUAGES.length);
    expect(roleDescription(i18n.getFixedT('zh-CN', 'org'), admin)).toBe('内置管理员角色：拥有全部权限');
    expect(roleDescription(i18n.getFixedT('zh-TW', 'org'), admin)).toBe('內置管理員角色：擁有全部權限');
  });

  it("shows another role's description as its author wrote it", () => {
    const t = i18n.getFixedT('zh-CN', 'org');
    expect(roleDescription(t, { builtIn: false, description: 'Night shift' })).toBe('Night shift');
    expect(roleDescription(t, { builtIn: false, description: null })).toBe('');
  });
});
