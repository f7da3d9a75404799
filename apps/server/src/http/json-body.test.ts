import { describe, expect, it } from 'vitest';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from './json-body.ts';

const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`;

describe('exceedsJsonDepth', () => {
  it('counts objects and arrays alike, up to the bound', () => {
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(exceedsJsonDepth('{"a":{"b":[1,{"c":2}]}}', 4)).toBe(false);
    expect(exceedsJsonDepth('{"a":{"b":[1,{"c":2}]}}', 3)).toBe(true);
    expect(exceedsJsonDepth(`{"x":${'{"a":'.repeat(4_999)}1${'}'.repeat(4_999)}}`, 64)).toBe(true);
  });

  it('measures the deepest point, not the number of brackets', () => {
    expect(exceedsJsonDepth(`[${Array.from({ length: 1000 }, () => '[[]]').join(',')}]`, 3)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(exceedsJsonDepth(JSON.stringify({ text: '[[[[[[[[{{{{{{' }), 1)).toBe(false);
    expect(exceedsJsonDepth(JSON.stringify({ text: 'a"[[[[\\"{{{{' }), 1)).toBe(false);
    expect(exceedsJsonDepth('["\\\\",[[]]]', 2)).toBe(true);
  });

  it('leaves what is not JSON to the parser', () => {
    expect(exceedsJsonDepth('', 1)).toBe(false);
    expect(exceedsJsonDepth(']]]]', 1)).toBe(false);
    expect(exceedsJsonDepth('"unterminated [[[[', 1)).toBe(false);
  });
});
