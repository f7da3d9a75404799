import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LANGUAGES } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_PARAMS } from '../src/modules/params/settings.ts';

const LOCALES = path.join(import.meta.dirname, '../../web/src/locales');

/** The console's descriptions of the built-in parameters (`params:builtInDesc.<name>`), in a language. */
function builtInDescriptions(lang: string): Record<string, string> {
  const texts = JSON.parse(readFileSync(path.join(LOCALES, lang, 'params.json'), 'utf8')) as {
    builtInDesc?: Record<string, string>;
  };
  return texts.builtInDesc ?? {};
}

/**
 * The parameters page shows a built-in parameter's description in the reader's language, falling back to
 * the English one the server stores: a parameter the console has no text for is shown in English to all.
 */
describe('built-in parameters in the console', () => {
  it.each(LANGUAGES)('each has a description in %s', (lang) => {
    const descriptions = builtInDescriptions(lang);
    expect(BUILT_IN_PARAMS.filter((p) => !descriptions[p.name]?.trim()).map((p) => p.name)).toEqual([]);
  });

  it('translates each into Chinese rather than repeating the stored English', () => {
    for (const lang of ['zh-CN', 'zh-TW']) {
      const descriptions = builtInDescriptions(lang);
      expect(BUILT_IN_PARAMS.filter((p) => descriptions[p.name] === p.desc).map((p) => p.name)).toEqual([]);
    }
  });
});
