import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ALL_ENDPOINTS } from '../api.ts';
import { LANGUAGES } from '../lang.ts';
import { pageQuery } from '../paging.ts';
import { issueParams, isValidationMessageKey, translateValidation, validationMessages } from './messages.ts';

const SRC = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** Inputs that break every field of an object schema in the usual ways. */
function badInputs(schema: z.ZodType): unknown[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  const fields = Object.keys(shape);
  const every = (value: unknown) => Object.fromEntries(fields.map((f) => [f, value]));
  return [
    {},
    every(''),
    every('   '),
    every('x'.repeat(5_000)),
    every(`Aa1${'x'.repeat(5_000)}`),
    every('§'),
  ];
}

describe('validation messages', () => {
  it('have a non-empty text in every language, with the same parameters', () => {
    for (const [key, texts] of Object.entries(validationMessages)) {
      expect(key).toMatch(/^v(\.\w+)+$/);
      expect(Object.keys(texts).sort()).toEqual([...LANGUAGES].sort());
      for (const lang of LANGUAGES) {
        expect(texts[lang].trim(), `${key} in ${lang}`).not.toBe('');
        expect(params(texts[lang]), `${key} in ${lang}`).toEqual(params(texts['zh-CN']));
      }
    }
  });

  it('exist for every v.* key written in the contracts', () => {
    const used = new Set<string>();
    for (const file of sourceFiles(SRC)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/['"`](v(?:\.[A-Za-z]+)+)['"`]/g))
        used.add(match[1]!);
    }
    expect(used.size).toBeGreaterThan(5);
    expect([...used].filter((key) => !isValidationMessageKey(key))).toEqual([]);
  });

  it('are what every endpoint schema reports, so every field error can be translated', () => {
    const schemas: Array<[string, z.ZodType]> = [['pageQuery', pageQuery]];
    for (const endpoint of ALL_ENDPOINTS) {
      if (endpoint.query) schemas.push([`${endpoint.path} query`, endpoint.query]);
      if (endpoint.body) schemas.push([`${endpoint.path} body`, endpoint.body]);
    }
    const untranslated: string[] = [];
    for (const [name, schema] of schemas) {
      for (const input of badInputs(schema)) {
        const result = schema.safeParse(input);
        for (const issue of result.error?.issues ?? []) {
          if (!isValidationMessageKey(issue.message)) {
            untranslated.push(`${name} ${issue.path.join('.')}: ${issue.message}`);
          }
        }
      }
    }
    expect(untranslated).toEqual([]);
  });

  it('are translated with their parameters; other texts pass unchanged', () => {
    expect(translateValidation('v.required', 'en')).toBe('This field is required');
    expect(translateValidation('v.required', 'zh-TW')).toBe('此項為必填項');
    expect(translateValidation('v.tooLong', 'en', { max: 64 })).toBe('At most 64 characters');
    expect(translateValidation('v.tooLong', 'zh-CN', { max: 64 })).toBe('最多 64 个字符');
    expect(translateValidation('something else', 'en')).toBe('something else');
  });

  it('take their parameters from a length limit or from what a refinement added', () => {
    expect(issueParams({ code: 'too_big', maximum: 64 })).toEqual({ max: 64 });
    expect(issueParams({ code: 'custom', params: { name: '{x}', n: 2, skip: { deep: 1 } } })).toEqual({
      name: '{x}',
      n: 2,
    });
    expect(issueParams({ code: 'custom' })).toBeUndefined();
    expect(issueParams({ code: 'invalid_type', params: { name: 'x' } })).toBeUndefined();
  });
});
