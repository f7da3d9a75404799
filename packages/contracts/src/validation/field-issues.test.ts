import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { endpointInputs, inputWith, type Segment } from '../endpoint-inputs.test-support.ts';
import { pageQuery } from '../paging.ts';
import { fixedAuthorizationForm } from './lock-task-forms.ts';
import { distinctIssues, issueParams, translateValidation } from './messages.ts';
import { departmentForm, staffCreateForm } from './org-forms.ts';

type JsonNode = Record<string, unknown>;

/** An input of one endpoint: where it sits in the query or the body, and its JSON schema. */
interface Field {
  endpoint: string;
  schema: z.ZodType;
  path: Segment[];
  node: JsonNode;
}

/** Every property of every endpoint's query and body, nested objects and arrays included. */
function everyField(): Field[] {
  const fields: Field[] = [];
  const walk = (endpoint: string, schema: z.ZodType, node: unknown, path: Segment[]) => {
    if (node === null || typeof node !== 'object') return;
    const n = node as JsonNode;
    if (path.length > 0 && path.at(-1) !== '[]') fields.push({ endpoint, schema, path, node: n });
    const properties = (n.properties ?? {}) as Record<string, unknown>;
    for (const [name, sub] of Object.entries(properties)) walk(endpoint, schema, sub, [...path, name]);
    if (n.items) walk(endpoint, schema, n.items, [...path, '[]']);
    // A body that is one of several forms (create or update) reports its issues under each form.
    if (path.length === 0 && (n.anyOf || n.oneOf)) return;
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      for (const sub of (n[key] as unknown[] | undefined) ?? []) walk(endpoint, schema, sub, path);
    }
  };
  for (const input of endpointInputs()) walk(input.name, input.schema, input.json, []);
  return fields;
}

const fieldName = (path: readonly Segment[]) => path.map((s) => (s === '[]' ? '0' : s)).join('.');

/** The issues the server reports for the field (one per field and rule), in English. */
function reported(field: Field, value: unknown): string[] {
  const result = field.schema.safeParse(inputWith(field.path, value));
  const name = fieldName(field.path);
  return distinctIssues(result.error?.issues ?? [])
    .filter((issue) => issue.path.map(String).join('.') === name)
    .map((issue) => translateValidation(issue.message, 'en', issueParams(issue)));
}

const numeric = (node: JsonNode) => node.type === 'number' || node.type === 'integer';

describe('field errors of every endpoint', () => {
  const fields = everyField();

  it('name the bound a number crossed, once (finding: pageIndex=0 said "enter a number")', () => {
    const vague: string[] = [];
    let checked = 0;
    for (const field of fields.filter((f) => numeric(f.node))) {
      const { minimum, maximum } = field.node as { minimum?: number; maximum?: number };
      const beyond: Array<[unknown, number]> = [];
      if (typeof minimum === 'number') beyond.push([minimum - 1, minimum]);
      if (typeof maximum === 'number') beyond.push([maximum + 1, maximum], [1e20, maximum]);
      for (const [value, bound] of beyond) {
        checked++;
        const messages = reported(field, value);
        if (messages.length !== 1 || !messages[0]!.includes(String(bound))) {
          vague.push(`${field.endpoint} ${fieldName(field.path)}=${value}: ${JSON.stringify(messages)}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(vague).toEqual([]);
  });

  it('call a value outside the choices invalid, not missing (finding: objectType "Staff" was "required")', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const field of fields.filter((f) => Array.isArray(f.node.enum))) {
      const choices = field.node.enum as unknown[];
      if (!choices.every((c) => typeof c === 'string')) continue;
      checked++;
      const messages = reported(field, `${choices[0]}-not-a-choice`);
      if (messages.length !== 1 || messages[0] !== translateValidation('v.invalid', 'en')) {
        wrong.push(`${field.endpoint} ${fieldName(field.path)}: ${JSON.stringify(messages)}`);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(wrong).toEqual([]);
  });

  it('say so when a choice is missing', () => {
    const missing = fixedAuthorizationForm.safeParse({});
    const objectType = missing.error?.issues.find((i) => i.path[0] === 'objectType');
    expect(objectType?.message).toBe('v.required');
    const staffType = staffCreateForm.safeParse({}).error?.issues.find((i) => i.path[0] === 'staffType');
    expect(staffType?.message).toBe('v.required');
    expect(staffCreateForm.safeParse({ staffType: 7 }).error?.issues).toContainEqual(
      expect.objectContaining({ path: ['staffType'], message: 'v.invalid' }),
    );
  });

  it('give the bound first in a form too, so a console field shows it (one message per field there)', () => {
    const first = (schema: z.ZodType, input: unknown, field: string) => {
      const issue = schema.safeParse(input).error?.issues.find((i) => i.path[0] === field);
      return issue && translateValidation(issue.message, 'en', issueParams(issue));
    };
    expect(first(pageQuery, { pageIndex: '0' }, 'pageIndex')).toBe('Must be at least 1');
    expect(first(pageQuery, { pageIndex: 'x' }, 'pageIndex')).toBe('Enter a number');
    expect(first(departmentForm, { idxNo: 2_000_000_001 }, 'idxNo')).toBe('Must be at most 2000000000');
    expect(first(staffCreateForm, { age: 1e20 }, 'age')).toBe('Must be at most 150');
    expect(first(staffCreateForm, { age: 1.5 }, 'age')).toBe(translateValidation('v.integer', 'en'));
    expect(first(staffCreateForm, { age: 'x' }, 'age')).toBe(translateValidation('v.integer', 'en'));
  });
});

describe('distinctIssues', () => {
  it('keeps the tighter of two bounds of a field and one of equal issues', () => {
    const issues = [
      { code: 'too_big', origin: 'int', maximum: Number.MAX_SAFE_INTEGER, path: ['age'], message: 'v.max' },
      { code: 'too_big', origin: 'number', maximum: 150, path: ['age'], message: 'v.max' },
      { code: 'custom', path: ['name'], message: 'v.required' },
      { code: 'custom', path: ['name'], message: 'v.required' },
      { code: 'custom', path: ['other'], message: 'v.required' },
    ];
    expect(distinctIssues(issues)).toEqual([issues[1], issues[2], issues[4]]);
  });
});
