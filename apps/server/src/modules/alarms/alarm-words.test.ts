import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LANGUAGES } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { SEVERITY_TEXT, STATE_TEXT } from './alarm-words.ts';

describe('alarm words', () => {
  it("are the console's words for states and severities, in every language", () => {
    for (const lang of LANGUAGES) {
      const file = path.resolve(import.meta.dirname, `../../../../web/src/locales/${lang}/alarms.json`);
      const words = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
      expect(Object.fromEntries(Object.entries(STATE_TEXT).map(([k, v]) => [k, v[lang]]))).toEqual(
        words.state,
      );
      expect(Object.fromEntries(Object.entries(SEVERITY_TEXT).map(([k, v]) => [k, v[lang]]))).toEqual(
        words.severity,
      );
    }
  });
});
