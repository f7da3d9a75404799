import { describe, expect, it } from 'vitest';
import { endpointInputs } from './endpoint-inputs.test-support.ts';

/** PostgreSQL's `integer`: a whole number above it is refused by the database, not by the form. */
const INTEGER_MAX = 2_147_483_647;
/** Whole numbers that are not stored in an integer column (a page number becomes an offset). */
const UNSTORED = new Set(['pageIndex']);

/** Every whole-number input of a JSON schema that has no upper bound an integer column can hold. */
function unbounded(schema: unknown, path: string, found: string[]): void {
  if (schema === null || typeof schema !== 'object') return;
  const node = schema as Record<string, unknown>;
  const name = path.split('.').at(-1) ?? '';
  if (node.type === 'integer' && !UNSTORED.has(name)) {
    const max = typeof node.maximum === 'number' ? node.maximum : Number.POSITIVE_INFINITY;
    if (max > INTEGER_MAX) found.push(path);
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value && typeof value === 'object') {
      for (const [prop, sub] of Object.entries(value)) unbounded(sub, `${path}.${prop}`, found);
    } else if (typeof value === 'object') {
      unbounded(value, key === 'items' ? `${path}[]` : path, found);
    }
  }
}

describe('whole-number inputs', () => {
  it('are all bounded below what an integer column holds (finding: a huge sort index answered HTTP 500)', () => {
    const found: string[] = [];
    for (const input of endpointInputs()) unbounded(input.json, input.name, found);
    expect(found).toEqual([]);
  });
});
