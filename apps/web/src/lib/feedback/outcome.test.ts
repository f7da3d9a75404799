import { LANGUAGES } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n.ts';
import { RequestError } from '../request/index.ts';
import { errorReason, OUTCOME_ACTIONS } from './outcome.ts';

describe('outcome texts', () => {
  it('has a success text and a "{failure}: {error}" template for every action in every language', () => {
    for (const lang of LANGUAGES) {
      const t = i18n.getFixedT(lang);
      for (const action of OUTCOME_ACTIONS) {
        expect(i18n.exists(`common:outcome.${action}.success`, { lng: lang }), `${lang} ${action}`).toBe(
          true,
        );
        expect(t(`common:outcome.${action}.failure`, { error: 'E!' }), `${lang} ${action}`).toMatch(/E!$/);
      }
    }
  });

  it('fills the reason of a request failure, or the message of any other error', () => {
    const error = new RequestError({
      kind: 'business',
      method: 'GET',
      url: '/x',
      code: 404,
      serverMessage: 'Gone',
    });
    expect(errorReason(error)).toBe('Gone');
    expect(errorReason(new Error('boom'))).toBe('boom');
    expect(i18n.getFixedT('en')('common:outcome.delete.failure', { error: 'Gone' })).toBe(
      'Delete failed: Gone',
    );
    expect(i18n.getFixedT('zh-CN')('common:outcome.delete.failure', { error: 'Gone' })).toBe(
      '删除失败：Gone',
    );
  });
});
