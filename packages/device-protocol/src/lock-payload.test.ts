import { describe, expect, it } from 'vitest';
import { MAX_LOCK_PAYLOAD_BYTES } from './limits.ts';
import {
  decodeLockCommand,
  decodeLockPayload,
  encodeLockCommand,
  encodeLockReport,
  encodeLockResult,
  LOCK_COMMAND_CODES,
  LOCK_FPORT,
  type LockReport,
} from './lock-payload.ts';
import { REPORT_EVENTS, RUN_STATES } from './message.ts';
import { mulberry32, mutate, randomBytes } from './test-support.ts';

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('lock payload layout', () => {
  it('encodes a report byte for byte as documented', () => {
    const payload = encodeLockReport(
      { event: 'lockChanged', lock: 'open', door: 'closed', runState: 'damaged', battery: 87 },
      0x1234,
    );
    // version, type, flags (seq), event 3, state: lock open 2 | door closed 1<<2 | run damaged 2<<4, battery, seq
    expect(payload).toEqual(bytes(0x01, 0x01, 0x01, 0x03, 0x02 | 0x04 | 0x20, 87, 0x12, 0x34));
    expect(encodeLockReport({})).toEqual(bytes(0x01, 0x01, 0x00, 0x00, 0x00, 0xff));
  });

  it('encodes extension properties as typed entries', () => {
    const payload = encodeLockReport({ props: { t: -2, x: 1.5, f: false, y: true, s: 'é' } });
    const int32 = [0x01, 1, 0x74, 0xff, 0xff, 0xff, 0xfe]; // t = -2
    const float64 = [0x02, 1, 0x78, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0]; // x = 1.5
    const falseEntry = [0x03, 1, 0x66]; // f
    const trueEntry = [0x04, 1, 0x79]; // y
    const string = [0x05, 1, 0x73, 2, 0xc3, 0xa9]; // s = "é"
    expect(Array.from(payload.subarray(6))).toEqual([
      ...int32,
      ...float64,
      ...falseEntry,
      ...trueEntry,
      ...string,
    ]);
  });

  it('encodes results and commands as documented', () => {
    expect(encodeLockResult(0xbeef, 'Success')).toEqual(bytes(0x01, 0x02, 0xbe, 0xef, 0x00));
    expect(encodeLockResult(1, 'Failure', 7)).toEqual(bytes(0x01, 0x02, 0x00, 0x01, 0x01, 0x07));
    expect(encodeLockCommand({ seq: 2, cmd: 'close' })).toEqual(bytes(0x01, 0x81, 0x00, 0x02, 0x02));
    expect(encodeLockCommand({ seq: 3, cmd: 'setParam', params: { hb: 60 } })).toEqual(
      bytes(0x01, 0x81, 0x00, 0x03, 0x03, 0x01, 2, 0x68, 0x62, 0, 0, 0, 60),
    );
    expect(LOCK_FPORT).toBe(10);
    expect(new Set(Object.values(LOCK_COMMAND_CODES)).size).toBe(Object.keys(LOCK_COMMAND_CODES).length);
  });
});

describe('decodeLockPayload', () => {
  it('round-trips every event, state and run state', () => {
    for (const event of REPORT_EVENTS) {
      for (const runState of RUN_STATES) {
        const report: LockReport = { event, runState, lock: 'closed', door: 'open', battery: 0 };
        expect(decodeLockPayload(encodeLockReport(report))).toEqual({
          ok: true,
          value: { type: 'report', report },
        });
      }
    }
  });

  it('round-trips seq, battery edges and props', () => {
    const report: LockReport = {
      battery: 100,
      props: {
        temp: 21.5,
        count: 2147483647,
        low: -2147483648,
        big: 2147483648,
        tamper: true,
        site: 'gate 4',
      },
    };
    expect(decodeLockPayload(encodeLockReport(report, 65535))).toEqual({
      ok: true,
      value: { type: 'report', seq: 65535, report },
    });
    expect(decodeLockPayload(encodeLockReport({}, 0))).toEqual({
      ok: true,
      value: { type: 'report', seq: 0, report: {} },
    });
  });

  it('rounds battery to whole percent and refuses values the layout cannot carry', () => {
    expect(decodeLockPayload(encodeLockReport({ battery: 55.6 }))).toMatchObject({
      value: { report: { battery: 56 } },
    });
    expect(() => encodeLockReport({ battery: 101 })).toThrow(RangeError);
    expect(() => encodeLockReport({}, 65536)).toThrow(RangeError);
    expect(() => encodeLockReport({}, -1)).toThrow(RangeError);
    expect(() => encodeLockReport({ props: { 'bad key': 1 } })).toThrow(RangeError);
    expect(() => encodeLockReport({ props: { n: Number.NaN } })).toThrow(RangeError);
    expect(() => encodeLockReport({ event: 'exploded' as never })).toThrow(RangeError);
    expect(() => encodeLockReport({ props: { s: 'x'.repeat(240) } })).toThrow(RangeError);
  });

  it('round-trips results with and without an error code', () => {
    expect(decodeLockPayload(encodeLockResult(42, 'Success'))).toEqual({
      ok: true,
      value: { type: 'result', seq: 42, outcome: 'Success' },
    });
    expect(decodeLockPayload(encodeLockResult(65535, 'Failure', 255))).toEqual({
      ok: true,
      value: { type: 'result', seq: 65535, outcome: 'Failure', errorCode: 255 },
    });
    expect(() => encodeLockResult(1, 'Failure', 256)).toThrow(RangeError);
  });

  it('reads a payload inside a larger buffer (offset views)', () => {
    const inner = encodeLockReport({ battery: 9 }, 7);
    const outer = new Uint8Array(inner.length + 10);
    outer.set(inner, 5);
    expect(decodeLockPayload(outer.subarray(5, 5 + inner.length))).toEqual(decodeLockPayload(inner));
  });

  it('refuses truncated payloads as malformed', () => {
    const full = encodeLockReport({ battery: 50, props: { temp: 1.5, s: 'abc' } }, 9);
    for (let length = 0; length < full.length; length++) {
      const result = decodeLockPayload(full.subarray(0, length));
      // Cutting right after a whole entry leaves a shorter valid payload.
      if (length === 8 || length === 8 + 2 + 4 + 8) continue;
      expect(result, `length ${length}`).toMatchObject({ ok: false, reason: 'malformed' });
    }
    expect(decodeLockPayload(bytes(0x01, 0x02, 0x00, 0x01))).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    expect(decodeLockPayload(bytes(0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0x00))).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
  });

  it('refuses bad values as invalid', () => {
    const cases = [
      bytes(0x01, 0x01, 0x02, 0x00, 0x00, 0xff), // reserved flag
      bytes(0x01, 0x01, 0x00, 0x0a, 0x00, 0xff), // event code
      bytes(0x01, 0x01, 0x00, 0x00, 0x03, 0xff), // lock code 3
      bytes(0x01, 0x01, 0x00, 0x00, 0x0c, 0xff), // door code 3
      bytes(0x01, 0x01, 0x00, 0x00, 0x50, 0xff), // run state 5
      bytes(0x01, 0x01, 0x00, 0x00, 0x80, 0xff), // reserved state bit
      bytes(0x01, 0x01, 0x00, 0x00, 0x00, 101), // battery 101
      bytes(0x01, 0x01, 0x00, 0x00, 0x00, 0xff, 0x09, 1, 0x61), // unknown entry type
      bytes(0x01, 0x01, 0x00, 0x00, 0x00, 0xff, 0x03, 0), // empty key
      bytes(0x01, 0x01, 0x00, 0x00, 0x00, 0xff, 0x03, 1, 0x20), // key with a space
      bytes(0x01, 0x01, 0x00, 0x00, 0x00, 0xff, 0x03, 1, 0x61, 0x04, 1, 0x61), // repeated key
      bytes(0x01, 0x01, 0x00, 0x00, 0x00, 0xff, 0x05, 1, 0x61, 1, 0xff), // string not UTF-8
      bytes(0x01, 0x01, 0x00, 0x00, 0x00, 0xff, 0x02, 1, 0x61, 0x7f, 0xf0, 0, 0, 0, 0, 0, 0), // Infinity
      bytes(0x01, 0x02, 0x00, 0x01, 0x02), // outcome 2
    ];
    for (const payload of cases) {
      expect(decodeLockPayload(payload), Array.from(payload).join(',')).toMatchObject({
        ok: false,
        reason: 'invalid',
      });
    }
    expect(decodeLockPayload(bytes(0x01, 0x01, 0x00, 0x00, 0x00, 100)).ok).toBe(true);
  });

  it('refuses more than 32 props', () => {
    const props = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`p${i}`, true]));
    expect(() => encodeLockReport({ props })).toThrow(RangeError);
    const entries = Array.from({ length: 33 }, (_, i) => [
      0x04,
      3,
      0x70,
      0x30 + Math.floor(i / 10),
      0x30 + (i % 10),
    ]);
    const payload = bytes(0x01, 0x01, 0x00, 0x00, 0x00, 0xff, ...entries.flat());
    expect(decodeLockPayload(payload)).toMatchObject({ ok: false, reason: 'invalid' });
    expect(decodeLockPayload(payload.subarray(0, payload.length - 5)).ok).toBe(true);
  });

  it('refuses unknown versions and types as unsupported', () => {
    expect(decodeLockPayload(bytes(0x02, 0x01, 0x00, 0x00, 0x00, 0xff))).toMatchObject({
      ok: false,
      reason: 'unsupported',
    });
    expect(decodeLockPayload(bytes(0x00, 0x01))).toMatchObject({ ok: false, reason: 'unsupported' });
    expect(decodeLockPayload(bytes(0x01, 0x07, 0x00))).toMatchObject({ ok: false, reason: 'unsupported' });
    expect(decodeLockPayload(encodeLockCommand({ seq: 1, cmd: 'open' }))).toMatchObject({
      ok: false,
      reason: 'unsupported',
    });
  });

  it('accepts exactly MAX_LOCK_PAYLOAD_BYTES and refuses one byte more', () => {
    // header 6 bytes + string entry (type, key length, key "s", length, text) = 10 + text
    const text = 'x'.repeat(MAX_LOCK_PAYLOAD_BYTES - 10);
    const atLimit = encodeLockReport({ props: { s: text } });
    expect(atLimit.length).toBe(MAX_LOCK_PAYLOAD_BYTES);
    expect(decodeLockPayload(atLimit)).toMatchObject({ ok: true, value: { report: { props: { s: text } } } });
    const over = new Uint8Array(MAX_LOCK_PAYLOAD_BYTES + 1);
    over.set(atLimit);
    expect(decodeLockPayload(over)).toMatchObject({ ok: false, reason: 'oversized' });
    expect(() => encodeLockReport({ props: { s: `${text}x` } })).toThrow(RangeError);
  });
});

describe('lock commands', () => {
  it('round-trips every command code with numeric params', () => {
    for (const cmd of Object.keys(LOCK_COMMAND_CODES)) {
      const command = { seq: 513, cmd, params: { a: 1, b: -2.25 } };
      expect(decodeLockCommand(encodeLockCommand(command))).toEqual({ ok: true, value: command });
    }
    expect(decodeLockCommand(encodeLockCommand({ seq: 0, cmd: 'open' }))).toEqual({
      ok: true,
      value: { seq: 0, cmd: 'open', params: {} },
    });
  });

  it('throws for an unknown command or a non-numeric param', () => {
    expect(() => encodeLockCommand({ seq: 1, cmd: 'explode' })).toThrow(RangeError);
    expect(() => encodeLockCommand({ seq: 1, cmd: 'toString' })).toThrow(RangeError);
    expect(() => encodeLockCommand({ seq: 1, cmd: 'open', params: { a: 'x' as unknown as number } })).toThrow(
      RangeError,
    );
  });

  it('refuses bad command payloads', () => {
    expect(decodeLockCommand(bytes(0x01, 0x81, 0x00, 0x01))).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    expect(decodeLockCommand(bytes(0x01, 0x81, 0x00, 0x01, 0x63))).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
    expect(decodeLockCommand(bytes(0x01, 0x81, 0x00, 0x01, 0x01, 0x04, 1, 0x61))).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
    expect(decodeLockCommand(encodeLockResult(1, 'Success'))).toMatchObject({
      ok: false,
      reason: 'unsupported',
    });
    expect(decodeLockCommand(bytes(0x09, 0x81, 0x00, 0x01, 0x01))).toMatchObject({
      ok: false,
      reason: 'unsupported',
    });
    expect(decodeLockCommand(new Uint8Array(243))).toMatchObject({ ok: false, reason: 'oversized' });
  });
});

describe('lock payload decoders on garbage', () => {
  it('never throw', () => {
    const random = mulberry32(0x5eed_0002);
    const valid = [
      encodeLockReport({ event: 'boot', lock: 'open', battery: 3, props: { t: 1.5, s: 'ab', b: true } }, 77),
      encodeLockResult(9, 'Failure', 3),
      encodeLockCommand({ seq: 5, cmd: 'setParam', params: { hb: 60, x: 0.5 } }),
    ];
    for (let i = 0; i < 3000; i++) {
      const input = i % 2 === 0 ? randomBytes(random, 40) : mutate(random, valid[i % 3] as Uint8Array);
      const payload = decodeLockPayload(input);
      const command = decodeLockCommand(input);
      if (!payload.ok) expect(['oversized', 'malformed', 'invalid', 'unsupported']).toContain(payload.reason);
      if (!command.ok) expect(['oversized', 'malformed', 'invalid', 'unsupported']).toContain(command.reason);
    }
  });
});
