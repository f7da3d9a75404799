import { describe, expect, it } from 'vitest';
import { DEFAULT_LANG, LANGUAGES, resolveLanguage } from './lang.ts';

describe('resolveLanguage', () => {
  it('defaults to zh-CN', () => {
    expect(DEFAULT_LANG).toBe('zh-CN');
    expect(LANGUAGES).toEqual(['zh-CN', 'en', 'zh-TW']);
    expect(resolveLanguage(undefined)).toBe('zh-CN');
    expect(resolveLanguage(null)).toBe('zh-CN');
    expect(resolveLanguage('')).toBe('zh-CN');
  });

  it.each([
    ['zh-CN', 'zh-CN'],
    ['zh', 'zh-CN'],
    ['zh-Hans', 'zh-CN'],
    ['zh-SG', 'zh-CN'],
    ['zh-TW', 'zh-TW'],
    ['zh-tw', 'zh-TW'],
    ['zh-HK', 'zh-TW'],
    ['zh-MO', 'zh-TW'],
    ['zh-Hant', 'zh-TW'],
    ['zh-Hant-HK', 'zh-TW'],
    ['en', 'en'],
    ['en-US', 'en'],
    ['EN-GB', 'en'],
  ] as const)('maps %s to %s', (header, lang) => {
    expect(resolveLanguage(header)).toBe(lang);
  });

  it('takes the first supported language of a list', () => {
    expect(resolveLanguage('fr-FR, en-US, zh-CN')).toBe('en');
    expect(resolveLanguage('de, zh-TW;q=0.8')).toBe('zh-TW');
  });

  it('orders by q-value, not by position', () => {
    expect(resolveLanguage('zh-CN;q=0.5, en;q=0.9')).toBe('en');
    expect(resolveLanguage('en;q=0.3, zh-HK;q=0.7, zh;q=0.5')).toBe('zh-TW');
    expect(resolveLanguage('en-US,en;q=0.9,zh-CN;q=0.8')).toBe('en');
    expect(resolveLanguage('zh-TW; q=1, en; q=0.99')).toBe('zh-TW');
  });

  it('ignores languages with q=0', () => {
    expect(resolveLanguage('en;q=0, zh-TW;q=0.1')).toBe('zh-TW');
    expect(resolveLanguage('en;q=0')).toBe('zh-CN');
  });

  it.each(['*', 'fr', 'klingon', ';;;', ',,,', 'q=1', 'en-;q=abc', '\u0000'])(
    'falls back to zh-CN for %j',
    (header) => {
      expect(resolveLanguage(header)).toBe('zh-CN');
    },
  );
});
