import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_PERMISSIONS, flattenMenus, LANGUAGES, MENU_CATALOGUE } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { ALL_RESOURCES as resources } from './all-locales.ts';
import { NAMESPACES } from './resources.ts';

type Texts = Record<string, unknown>;

/** `{ a: { b: 'x' } }` → `{ 'a.b': 'x' }`. */
function flatten(texts: Texts, prefix = ''): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [key, value] of Object.entries(texts)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') keys.set(path, value);
    else for (const [inner, text] of flatten(value as Texts, path)) keys.set(inner, text);
  }
  return keys;
}

const keysOf = (lang: (typeof LANGUAGES)[number], ns: string) =>
  flatten((resources[lang][ns] ?? {}) as Texts);
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Literal keys used in code: `t('key')` with the file's `useTranslation('ns')`, or `t('ns:key')`. */
function keysUsedInCode(): { file: string; ns: string; key: string }[] {
  const root = join(import.meta.dirname, '../..');
  return sourceFiles(root).flatMap((file) => {
    // Doc comments (`/** ... */`) hold examples, not keys the code uses.
    const code = readFileSync(file, 'utf8').replace(/\/\*\*[\s\S]*?\*\//g, '');
    const defaultNs = /useTranslation\('(\w+)'\)/.exec(code)?.[1] ?? 'common';
    return [...code.matchAll(/\bt\(\s*'([\w.:-]+)'/g)].map(([, literal = '']) => {
      const [ns, key] = literal.includes(':')
        ? (literal.split(':') as [string, string])
        : [defaultNs, literal];
      return { file: file.slice(root.length + 1), ns, key };
    });
  });
}

describe('locales', () => {
  it('has the same namespaces in every language', () => {
    for (const lang of LANGUAGES) expect(Object.keys(resources[lang]).sort()).toEqual(NAMESPACES);
  });

  for (const ns of NAMESPACES) {
    it(`has every key of namespace ${ns} in every language, none empty`, () => {
      const reference = new Set(LANGUAGES.flatMap((lang) => [...keysOf(lang, ns).keys()]));
      for (const lang of LANGUAGES) {
        const keys = keysOf(lang, ns);
        expect(
          [...reference].filter((key) => !keys.has(key)),
          `${lang}/${ns}.json lacks`,
        ).toEqual([]);
        expect(
          [...keys].filter(([, text]) => text.trim() === '').map(([key]) => key),
          `${lang}/${ns}.json`,
        ).toEqual([]);
      }
    });

    it(`uses the same parameters in every language in namespace ${ns}`, () => {
      for (const [key, text] of keysOf('zh-CN', ns)) {
        for (const lang of LANGUAGES) {
          expect(placeholders(keysOf(lang, ns).get(key) ?? ''), `${lang}/${ns}:${key}`).toEqual(
            placeholders(text),
          );
        }
      }
    });
  }

  it('translates every key used in code', () => {
    const missing = keysUsedInCode()
      .filter(({ ns, key }) => !keysOf('zh-CN', ns).has(key))
      .map(({ file, ns, key }) => `${file}: ${ns}:${key}`);
    expect(missing).toEqual([]);
  });

  it('translates the title of every menu catalogue entry', () => {
    const titles = keysOf('zh-CN', 'menu');
    expect(flattenMenus(MENU_CATALOGUE).filter((entry) => !titles.has(entry.titleKey))).toEqual([]);
  });

  it('titles every permission key (namespace permission), so the permission tree can show it', () => {
    for (const lang of LANGUAGES) {
      const titles = keysOf(lang, 'permission');
      expect(
        ALL_PERMISSIONS.filter((key) => !titles.has(key)),
        `${lang}/permission.json lacks`,
      ).toEqual([]);
    }
  });

  it('titles every button key of the menu catalogue', () => {
    const titles = keysOf('zh-CN', 'permission');
    const buttons = flattenMenus(MENU_CATALOGUE).flatMap((entry) => entry.buttons ?? []);
    expect(buttons.filter((key) => !titles.has(key))).toEqual([]);
  });
});
