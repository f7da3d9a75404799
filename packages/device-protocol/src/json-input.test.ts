import { describe, expect, it } from 'vitest';
import { parseJson, payloadText } from './json-input.ts';

describe('payloadText', () => {
  it('gives the text of UTF-8 bytes, and text as it is', () => {
    expect(payloadText(Buffer.from('{"a":"€"}'), 100)).toEqual({ ok: true, value: '{"a":"€"}' });
    expect(payloadText(new Uint8Array([0x68, 0x69]), 100)).toEqual({ ok: true, value: 'hi' });
    expect(payloadText('{"a":1}', 100)).toEqual({ ok: true, value: '{"a":1}' });
  });

  it('refuses bytes that are not UTF-8 as malformed', () => {
    expect(payloadText(new Uint8Array([0x7b, 0xff, 0x7d]), 100)).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    expect(payloadText(42 as unknown as string, 100)).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('counts UTF-8 bytes against the limit, bytes or text, and checks the size before decoding', () => {
    expect(payloadText(Buffer.from('€€'), 6).ok).toBe(true);
    expect(payloadText(Buffer.from('€€'), 5)).toMatchObject({ ok: false, reason: 'oversized' });
    expect(payloadText('€€', 6).ok).toBe(true);
    expect(payloadText('€€', 5)).toMatchObject({ ok: false, reason: 'oversized' });
    // Over the limit and not UTF-8: oversized, so a huge payload is never decoded.
    expect(payloadText(new Uint8Array(11).fill(0xff), 10)).toMatchObject({ ok: false, reason: 'oversized' });
  });

  it('is what parseJson parses: the same refusals, then JSON', () => {
    expect(parseJson(new Uint8Array([0x7b, 0xff, 0x7d]), 100)).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    expect(parseJson('[1]', 2)).toMatchObject({ ok: false, reason: 'oversized' });
    expect(parseJson('{"a":', 100)).toMatchObject({
      ok: false,
      reason: 'malformed',
      detail: 'payload is not JSON',
    });
    expect(parseJson(Buffer.from('[1]'), 100)).toEqual({ ok: true, value: [1] });
  });
});
