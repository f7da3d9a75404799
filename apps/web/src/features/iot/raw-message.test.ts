import { describe, expect, it } from 'vitest';
import { readableMessage } from './raw-message.ts';

describe('readableMessage', () => {
  it('indents a JSON object as JSON.stringify would, two spaces a level', () => {
    const raw = '{"lock":"closed","battery":87,"props":{"rssi":-71,"door":"open"},"tags":["a","b"]}';
    expect(readableMessage(raw)).toEqual({
      text: JSON.stringify(JSON.parse(raw), null, 2),
      json: true,
    });
  });

  it('keeps every literal as the device wrote it (no reparse of numbers)', () => {
    const { text } = readableMessage('{"seq":12345678901234567890,"voltage":3.60,"exp":1e3}');
    expect(text).toBe('{\n  "seq": 12345678901234567890,\n  "voltage": 3.60,\n  "exp": 1e3\n}');
  });

  it('leaves the inside of strings alone: escapes, quotes, brackets, commas and spaces', () => {
    const raw = '{"note":"a, b: {c} [d] \\"e\\" \\\\","empty":{},"none":[ ],"list":[1,{"x":null}]}';
    const { text, json } = readableMessage(raw);
    expect(json).toBe(true);
    expect(JSON.parse(text)).toEqual(JSON.parse(raw));
    expect(text).toBe(JSON.stringify(JSON.parse(raw), null, 2));
    expect(text).toContain('"note": "a, b: {c} [d] \\"e\\" \\\\"');
  });

  it('re-indents JSON that arrived already formatted or with stray whitespace', () => {
    expect(readableMessage('  [ 1 ,\n\t2 ]  ')).toEqual({ text: '[\n  1,\n  2\n]', json: true });
  });

  it('shows hex payloads, plain scalars and broken JSON exactly as received', () => {
    expect(readableMessage('A5010203FF')).toEqual({ text: 'A5010203FF', json: false });
    expect(readableMessage('12345678901234567890')).toEqual({ text: '12345678901234567890', json: false });
    expect(readableMessage('{"lock":"closed",')).toEqual({ text: '{"lock":"closed",', json: false });
    expect(readableMessage('')).toEqual({ text: '', json: false });
  });
});
