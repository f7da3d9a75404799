import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { endpointInputs, inputWith, type Segment } from './endpoint-inputs.test-support.ts';
import { searchTime, TIME_MAX_YEAR, TIME_MIN_YEAR, timeProblem } from './validation/formats.ts';
import { isValidationMessageKey, translateValidation } from './validation/messages.ts';
import { timeRangeProblem } from './validation/org-forms.ts';

interface Field {
  name: string;
  schema: z.ZodType;
  path: Segment[];
}

const A_TIME = '2024-05-01T08:00:00.000Z';
/** Times outside the years a request may carry (finding: a 5-digit year answered HTTP 500). */
const OUT_OF_RANGE = [
  '99999-01-01',
  '99999-02-01T00:00:00Z',
  '+099999-01-01T00:00:00.000Z',
  '10000-01-01T00:00:00Z',
  '1969-12-31T23:59:59Z',
];

/** Every property of every endpoint's query and body (nested objects and arrays, every form of a union). */
function everyField(): Field[] {
  const fields: Field[] = [];
  const walk = (name: string, schema: z.ZodType, node: unknown, path: Segment[]) => {
    if (node === null || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    for (const [prop, sub] of Object.entries((n.properties ?? {}) as Record<string, unknown>)) {
      fields.push({ name, schema, path: [...path, prop] });
      walk(name, schema, sub, [...path, prop]);
    }
    if (n.items) walk(name, schema, n.items, [...path, '[]']);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      for (const sub of (n[key] as unknown[] | undefined) ?? []) walk(name, schema, sub, path);
    }
  };
  for (const input of endpointInputs()) walk(input.name, input.schema, input.json, []);
  // A property of several forms of a union is found once per form.
  const seen = new Set<string>();
  return fields.filter((f) => {
    const key = `${f.name} ${f.path.join('.')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

interface FlatIssue {
  path: string;
  message: string;
}

/** The issues of a parse, those inside the forms of a union included. */
function flatIssues(issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[] = []): FlatIssue[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    const own = { path: path.map(String).join('.'), message: issue.message };
    if (issue.code !== 'invalid_union') return [own];
    return [own, ...issue.errors.flatMap((errors) => flatIssues(errors, path))];
  });
}

/** The messages of the issues at `field` when only it is given `value`. */
function messagesAt(field: Field, value: unknown): string[] {
  const result = field.schema.safeParse(inputWith(field.path, value));
  const at = field.path.map((s) => (s === '[]' ? '0' : s)).join('.');
  return flatIssues(result.error?.issues ?? [])
    .filter((issue) => issue.path === at)
    .map((issue) => issue.message);
}

/** A field that takes a time: named so, or taking a time and refusing other text. */
const takesTime = (field: Field) => {
  if (messagesAt(field, A_TIME).length > 0) return false;
  const named = /(Time|Date|At)$/.test(String(field.path.at(-1)));
  return named || messagesAt(field, 'tomorrow').length > 0;
};

describe('times of requests', () => {
  it(`are refused outside the years ${TIME_MIN_YEAR}–${TIME_MAX_YEAR} wherever an endpoint takes one`, () => {
    const timeFields = everyField().filter(takesTime);
    const accepted: string[] = [];
    for (const field of timeFields) {
      for (const value of OUT_OF_RANGE) {
        const messages = messagesAt(field, value);
        if (messages.length === 0 || !messages.every(isValidationMessageKey)) {
          accepted.push(`${field.name} ${field.path.join('.')}=${value}: ${JSON.stringify(messages)}`);
        }
      }
    }
    const names = new Set(timeFields.map((f) => `${f.name} ${f.path.join('.')}`));
    // The searches of the finding, and the forms that store times.
    for (const name of [
      '/oplog/queryPage query startTime',
      '/oplog/export query endTime',
      '/loginlog/queryPage query startTime',
      '/deviceAlarm/queryPage query startTime',
      '/deviceHistory/queryPage query endTime',
      '/operationRecord/queryPage query startTime',
      '/deviceCommand/queryPage query startTime',
      '/lockTask/save body startTime',
      '/pin/generate body endTime',
      '/fixedAuthorization/save body startTime',
      '/client/uploadRecords body records.[].operateTime',
    ]) {
      expect(names, name).toContain(name);
    }
    expect(accepted).toEqual([]);
  });

  it('are told with a translated message naming the years', () => {
    expect(searchTime.safeParse('99999-01-01').error?.issues[0]?.message).toBe('v.timeBounds');
    expect(searchTime.safeParse('').success).toBe(true);
    expect(searchTime.safeParse(A_TIME).success).toBe(true);
    expect(translateValidation('v.timeBounds', 'en')).toContain(`${TIME_MIN_YEAR} and ${TIME_MAX_YEAR}`);
    expect(timeProblem('9999-12-31T23:59:59.999Z')).toBeNull();
    expect(timeProblem('1970-01-01T00:00:00Z')).toBeNull();
    expect(timeProblem('tomorrow')).toBe('v.invalid');
  });

  it('of a range are checked bound by bound, one bound alone too', () => {
    const open = { required: false, maxOneYear: false };
    expect(timeRangeProblem('99999-01-01', undefined, open)).toEqual({
      path: 'startTime',
      message: 'v.timeBounds',
    });
    expect(timeRangeProblem(A_TIME, '99999-02-01', open)).toEqual({
      path: 'endTime',
      message: 'v.timeBounds',
    });
    expect(timeRangeProblem(undefined, undefined, open)).toBeNull();
  });
});
