import { api, LANGUAGES } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { ALL_RESOURCES as resources } from '../i18n/all-locales.ts';
import { LOGGED_OPERATIONS, operationName, operationNameOfUrl } from './operation-title.ts';

describe('operation titles (namespace operation)', () => {
  it('names an operation as the op log does: module + path', () => {
    expect(operationName(api.params.save)).toBe('params/params/save');
    expect(LOGGED_OPERATIONS).toContain('registration/sysMessage/reviewRegistration');
    expect(LOGGED_OPERATIONS).not.toContain(operationName(api.logs.queryOpLogPage));
  });

  it('titles every mutating endpoint in every language', () => {
    for (const lang of LANGUAGES) {
      const titles = (resources[lang].operation ?? {}) as Record<string, unknown>;
      const missing = LOGGED_OPERATIONS.filter(
        (name) => typeof titles[name] !== 'string' || (titles[name] as string).trim() === '',
      );
      expect(missing, `${lang}/operation.json lacks`).toEqual([]);
    }
  });

  it('has no title for an operation that does not exist', () => {
    const known = new Set(LOGGED_OPERATIONS);
    for (const lang of LANGUAGES) {
      const stale = Object.keys(resources[lang].operation ?? {}).filter((name) => !known.has(name));
      expect(stale, `${lang}/operation.json`).toEqual([]);
    }
  });

  it('finds the operation of a logged URL', () => {
    expect(operationNameOfUrl('/api/params/save')).toBe('params/params/save');
    expect(operationNameOfUrl('/api/staff/del?id=3')).toBe('org/staff/del');
    expect(operationNameOfUrl('/api/oplog/queryPage')).toBeUndefined();
    expect(operationNameOfUrl(null)).toBeUndefined();
  });
});
