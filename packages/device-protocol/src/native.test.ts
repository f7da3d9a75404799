import { describe, expect, it } from 'vitest';
import { MAX_NATIVE_PAYLOAD_BYTES } from './limits.ts';
import type { Decoded } from './message.ts';
import {
  decodeNativeCommand,
  decodeNativeReport,
  decodeNativeResult,
  encodeNativeCommand,
  encodeNativeReport,
  encodeNativeResult,
} from './native.ts';
import { garbageInputs } from './test-support.ts';

const EXAMPLE =
  '{"id":"m-000123","ts":1763750000000,"event":"heartbeat","lock":"closed","door":"closed","battery":87,' +
  '"rssi":-71,"run":"normal","props":{"temp":21.5,"tamper":false}}';

function failure<T>(result: Decoded<T>): { reason: string; detail: string } {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return { reason: result.reason, detail: result.detail };
}

function report(fields: Record<string, unknown>) {
  return decodeNativeReport(JSON.stringify({ id: 'm-1', ...fields }));
}

/** A JSON object padded with spaces to exactly `bytes` bytes. */
function padded(json: string, bytes: number): string {
  return `${json.slice(0, -1)}${' '.repeat(bytes - Buffer.byteLength(json))}}`;
}

describe('decodeNativeReport', () => {
  it('decodes the documented example', () => {
    expect(decodeNativeReport(EXAMPLE)).toEqual({
      ok: true,
      value: {
        kind: 'report',
        messageId: 'm-000123',
        reportedAt: 1763750000000,
        event: 'heartbeat',
        lock: 'closed',
        door: 'closed',
        battery: 87,
        rssi: -71,
        runState: 'normal',
        props: { temp: 21.5, tamper: false },
      },
    });
  });

  it('decodes bytes the same as text', () => {
    expect(decodeNativeReport(new TextEncoder().encode(EXAMPLE))).toEqual(decodeNativeReport(EXAMPLE));
  });

  it('needs only the id; null optional fields count as absent', () => {
    expect(decodeNativeReport('{"id":"a"}')).toEqual({ ok: true, value: { kind: 'report', messageId: 'a' } });
    expect(report({ battery: null, lock: null, props: null })).toEqual({
      ok: true,
      value: { kind: 'report', messageId: 'm-1' },
    });
  });

  it('ignores unknown top-level keys', () => {
    expect(report({ firmware: '2.1.0', battery: 50, extra: { deep: [1, 2] } })).toEqual({
      ok: true,
      value: { kind: 'report', messageId: 'm-1', battery: 50 },
    });
  });

  it('checks the id', () => {
    expect(decodeNativeReport('{}')).toMatchObject({ ok: false, reason: 'invalid' });
    expect(failure(decodeNativeReport('{"id":7}')).detail).toMatch(/^id:/);
    expect(failure(decodeNativeReport('{"id":""}')).detail).toMatch(/^id:/);
    expect(failure(decodeNativeReport('{"id":"a b"}')).detail).toMatch(/^id:/);
    expect(failure(decodeNativeReport('{"id":"m/1"}')).detail).toMatch(/^id:/);
    expect(decodeNativeReport(JSON.stringify({ id: 'x'.repeat(64) })).ok).toBe(true);
    expect(failure(decodeNativeReport(JSON.stringify({ id: 'x'.repeat(65) }))).detail).toMatch(/^id:/);
    expect(decodeNativeReport('{"id":"A-z_0.9:x"}').ok).toBe(true);
  });

  it('checks ts: an integer in ms from 2000 on', () => {
    expect(report({ ts: 946_684_800_000 })).toMatchObject({
      ok: true,
      value: { reportedAt: 946_684_800_000 },
    });
    for (const ts of [
      946_684_799_999,
      1763750000000.5,
      '1763750000000',
      1763750000,
      -1,
      5_000_000_000_000,
      true,
    ]) {
      const result = failure(report({ ts }));
      expect(result.reason).toBe('invalid');
      expect(result.detail).toMatch(/^ts:/);
    }
  });

  it.each([
    ['event', 'heartbeat', 'opened'],
    ['event', 'status', 1],
    ['lock', 'open', 'locked'],
    ['door', 'closed', 'CLOSED'],
    ['run', 'timeOutNotClosed', 'broken'],
  ])('checks %s against its values (%s ok, %s refused)', (field, good, bad) => {
    expect(report({ [field]: good }).ok).toBe(true);
    const result = failure(report({ [field]: bad }));
    expect(result.reason).toBe('invalid');
    expect(result.detail.startsWith(`${field}:`)).toBe(true);
  });

  it('checks battery 0..100 and rssi -200..0 at their edges', () => {
    expect(report({ battery: 0 }).ok).toBe(true);
    expect(report({ battery: 100 }).ok).toBe(true);
    expect(report({ battery: 55.5 })).toMatchObject({ ok: true, value: { battery: 55.5 } });
    expect(failure(report({ battery: -0.1 })).detail).toMatch(/^battery:/);
    expect(failure(report({ battery: 100.1 })).detail).toMatch(/^battery:/);
    expect(failure(report({ battery: '87' })).detail).toMatch(/^battery:/);
    expect(report({ rssi: -200 }).ok).toBe(true);
    expect(report({ rssi: 0 }).ok).toBe(true);
    expect(failure(report({ rssi: -201 })).detail).toMatch(/^rssi:/);
    expect(failure(report({ rssi: 1 })).detail).toMatch(/^rssi:/);
    // JSON cannot carry NaN or Infinity; 1e999 parses to Infinity.
    expect(failure(decodeNativeReport('{"id":"a","battery":1e999}')).detail).toMatch(/^battery:/);
  });

  it('checks props: keys, value types, string length and count', () => {
    expect(report({ props: { 'a.b_c-1': 'x'.repeat(256), n: -3.5, f: true } }).ok).toBe(true);
    const tooMany = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i]));
    const enough = Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`k${i}`, i]));
    expect(report({ props: enough }).ok).toBe(true);
    expect(failure(report({ props: tooMany })).detail).toMatch(/^props:/);
    expect(failure(report({ props: { s: 'x'.repeat(257) } })).detail).toMatch(/^props\.s:/);
    expect(failure(report({ props: { o: { nested: 1 } } })).detail).toMatch(/^props\.o:/);
    expect(failure(report({ props: { a: null } })).detail).toMatch(/^props\.a:/);
    expect(failure(report({ props: { 'bad key': 1 } })).detail).toMatch(/^props:/);
    expect(failure(report({ props: { ['k'.repeat(65)]: 1 } })).detail).toMatch(/^props:/);
    expect(failure(report({ props: [1, 2] })).detail).toMatch(/^props:/);
    expect(failure(report({ props: 'temp=1' })).detail).toMatch(/^props:/);
  });

  it('refuses a __proto__ prop instead of letting it set a prototype', () => {
    const result = decodeNativeReport('{"id":"a","props":{"__proto__":{"polluted":true}}}');
    expect(result.ok).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses text that is not JSON, JSON that is not an object, and bytes that are not UTF-8', () => {
    expect(failure(decodeNativeReport('{"id":'))).toMatchObject({ reason: 'malformed' });
    expect(failure(decodeNativeReport(''))).toMatchObject({ reason: 'malformed' });
    for (const text of ['[]', '[{"id":"a"}]', 'null', '"id"', '42', 'true']) {
      expect(failure(decodeNativeReport(text))).toMatchObject({ reason: 'malformed' });
    }
    expect(failure(decodeNativeReport(new Uint8Array([0x7b, 0xff, 0x7d])))).toMatchObject({
      reason: 'malformed',
    });
  });

  it('accepts exactly MAX_NATIVE_PAYLOAD_BYTES and refuses one byte more, counting UTF-8 bytes', () => {
    const atLimit = padded('{"id":"a"}', MAX_NATIVE_PAYLOAD_BYTES);
    expect(Buffer.byteLength(atLimit)).toBe(MAX_NATIVE_PAYLOAD_BYTES);
    expect(decodeNativeReport(atLimit).ok).toBe(true);
    expect(decodeNativeReport(Buffer.from(atLimit)).ok).toBe(true);
    const over = padded('{"id":"a"}', MAX_NATIVE_PAYLOAD_BYTES + 1);
    expect(failure(decodeNativeReport(over)).reason).toBe('oversized');
    expect(failure(decodeNativeReport(Buffer.from(over))).reason).toBe('oversized');
    // 3000 characters of 3 bytes each: short in characters, over the limit in bytes.
    const wide = JSON.stringify({ id: 'a', props: { s: '€'.repeat(3000) } });
    expect(wide.length).toBeLessThan(MAX_NATIVE_PAYLOAD_BYTES);
    expect(failure(decodeNativeReport(wide)).reason).toBe('oversized');
  });

  it('checks the size before parsing: a huge non-JSON payload is oversized, not malformed', () => {
    expect(failure(decodeNativeReport('x'.repeat(MAX_NATIVE_PAYLOAD_BYTES + 1))).reason).toBe('oversized');
  });

  it('round-trips through encodeNativeReport', () => {
    const value = {
      messageId: 'm-9',
      reportedAt: 1763750000000,
      event: 'doorChanged' as const,
      lock: 'open' as const,
      door: 'open' as const,
      battery: 12,
      rssi: -99,
      runState: 'lowPower' as const,
      props: { temp: -4, label: 'north gate', tamper: true },
    };
    expect(decodeNativeReport(encodeNativeReport(value))).toEqual({
      ok: true,
      value: { kind: 'report', ...value },
    });
    expect(encodeNativeReport({ messageId: 'm-1', battery: 5 })).toBe('{"id":"m-1","battery":5}');
  });
});

describe('decodeNativeResult', () => {
  it('decodes success and failure', () => {
    expect(
      decodeNativeResult('{"id":"a-77","cmd":"c-1","result":"failure","detail":"jammed","ts":1763750000000}'),
    ).toEqual({
      ok: true,
      value: {
        kind: 'commandResult',
        messageId: 'a-77',
        commandId: 'c-1',
        outcome: 'Failure',
        detail: 'jammed',
        reportedAt: 1763750000000,
      },
    });
    expect(decodeNativeResult('{"id":"a","cmd":"c","result":"success","x":1}')).toEqual({
      ok: true,
      value: { kind: 'commandResult', messageId: 'a', commandId: 'c', outcome: 'Success' },
    });
  });

  it('checks every field', () => {
    const base = { id: 'a', cmd: 'c', result: 'success' };
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ ...base, id: undefined }, 'id'],
      [{ ...base, cmd: undefined }, 'cmd'],
      [{ ...base, cmd: 12 }, 'cmd'],
      [{ ...base, result: 'Success' }, 'result'],
      [{ ...base, result: 'ok' }, 'result'],
      [{ ...base, detail: 5 }, 'detail'],
      [{ ...base, detail: 'd'.repeat(201) }, 'detail'],
      [{ ...base, ts: 'now' }, 'ts'],
    ];
    for (const [fields, field] of bad) {
      const result = failure(decodeNativeResult(JSON.stringify(fields)));
      expect(result.reason).toBe('invalid');
      expect(result.detail.startsWith(`${field}:`), `${field}: ${result.detail}`).toBe(true);
    }
    expect(decodeNativeResult(JSON.stringify({ ...base, detail: 'd'.repeat(200) })).ok).toBe(true);
  });

  it('refuses malformed and non-object payloads', () => {
    expect(failure(decodeNativeResult('{"id":"a",}')).reason).toBe('malformed');
    expect(failure(decodeNativeResult('["a"]')).reason).toBe('malformed');
  });

  it('round-trips through encodeNativeResult, which refuses the platform outcomes', () => {
    const value = {
      messageId: 'a-1',
      commandId: '3f1c2a9e-0b7d-4c1e-9a55-2f8e6d4b1c00',
      outcome: 'Success' as const,
    };
    expect(decodeNativeResult(encodeNativeResult(value))).toEqual({
      ok: true,
      value: { kind: 'commandResult', ...value },
    });
    expect(() => encodeNativeResult({ ...value, outcome: 'NB_Delivered' })).toThrow(RangeError);
  });
});

describe('decodeNativeCommand', () => {
  it('decodes and round-trips a command', () => {
    const command = {
      id: '3f1c2a9e-0b7d-4c1e-9a55-2f8e6d4b1c00',
      cmd: 'setParam',
      params: { heartbeat: 60, mode: 'eco', buzzer: false },
      expireAt: 1763750060000,
    };
    const text = encodeNativeCommand(command);
    expect(JSON.parse(text)).toEqual({
      id: command.id,
      cmd: 'setParam',
      params: command.params,
      expire: 1763750060000,
    });
    expect(decodeNativeCommand(text)).toEqual({ ok: true, value: command });
    expect(decodeNativeCommand('{"id":"c","cmd":"open"}')).toEqual({
      ok: true,
      value: { id: 'c', cmd: 'open' },
    });
  });

  it('checks every field', () => {
    const cases: Array<[string, string]> = [
      ['{"cmd":"open"}', 'id'],
      ['{"id":"c"}', 'cmd'],
      ['{"id":"c","cmd":"1open"}', 'cmd'],
      ['{"id":"c","cmd":"open door"}', 'cmd'],
      ['{"id":"c","cmd":"open","params":[1]}', 'params'],
      ['{"id":"c","cmd":"open","params":{"a":{}}}', 'params'],
      ['{"id":"c","cmd":"open","expire":"soon"}', 'expire'],
      ['{"id":"c","cmd":"open","expire":12}', 'expire'],
    ];
    for (const [text, field] of cases) {
      const result = failure(decodeNativeCommand(text));
      expect(result.reason).toBe('invalid');
      expect(result.detail, text).toMatch(new RegExp(`^${field}[.:]`));
    }
    expect(failure(decodeNativeCommand('open')).reason).toBe('malformed');
  });
});

describe('native decoders on garbage', () => {
  const valid = [
    EXAMPLE,
    '{"id":"a-77","cmd":"c-1","result":"failure","detail":"jammed","ts":1763750000000}',
    '{"id":"c","cmd":"setParam","params":{"a":1},"expire":1763750060000}',
  ];
  it.each([
    ['decodeNativeReport', decodeNativeReport],
    ['decodeNativeResult', decodeNativeResult],
    ['decodeNativeCommand', decodeNativeCommand],
  ] as const)('%s never throws and always answers ok or a reason', (_name, decode) => {
    for (const input of garbageInputs(0x5eed_0001, valid)) {
      const result = decode(input);
      if (!result.ok) expect(['oversized', 'malformed', 'invalid', 'unsupported']).toContain(result.reason);
    }
  });
});
