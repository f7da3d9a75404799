import { describe, expect, it } from 'vitest';
import { MAX_NUL_FINDINGS, nulPaths } from './nul-text.ts';

describe('nulPaths', () => {
  it('names every string holding U+0000, in document order', () => {
    expect(
      nulPaths({
        name: 'a\u0000',
        list: ['ok', 'b\u0000c', { deep: '\u0000' }],
        n: 1,
        flag: true,
        none: null,
      }),
    ).toEqual(['name', 'list.1', 'list.2.deep']);
    expect(nulPaths('\u0000')).toEqual(['']);
    expect(nulPaths({ clean: 'text', other: ['x'] })).toEqual([]);
  });

  it('names an object key holding U+0000, written escaped', () => {
    expect(nulPaths({ outer: { 'k\u0000': 'value' } })).toEqual(['outer.k\\u0000']);
  });

  it('stops at MAX_NUL_FINDINGS', () => {
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}`, '\u0000']));
    expect(nulPaths(many)).toHaveLength(MAX_NUL_FINDINGS);
  });

  it('walks any nesting without recursion', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nulPaths(deep)[0]).toMatch(/^(0\.){99999}0$/);
  });
});
