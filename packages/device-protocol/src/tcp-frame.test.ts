import { describe, expect, it } from 'vitest';
import { MAX_TCP_FRAME_BYTES } from './limits.ts';
import type { Decoded } from './message.ts';
import {
  decodeTcpDeviceMessage,
  decodeTcpServerMessage,
  encodeFrame,
  encodeTcpAuth,
  encodeTcpAuthResult,
  encodeTcpCommand,
  encodeTcpReceived,
  encodeTcpReport,
  encodeTcpResult,
  FrameDecoder,
} from './tcp-frame.ts';
import { garbageInputs, mulberry32, randomBytes } from './test-support.ts';

const text = (frames: Decoded<Buffer>[]) =>
  frames.map((f) => (f.ok ? f.value.toString('utf8') : `!${f.reason}`));
const body = (frame: Buffer) => frame.subarray(4);

function header(length: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(length);
  return b;
}

describe('encodeFrame', () => {
  it('prefixes a 4-byte big-endian length', () => {
    expect([...encodeFrame('{"a":1}')]).toEqual([0, 0, 0, 7, ...Buffer.from('{"a":1}')]);
    expect([...encodeFrame('"é"')]).toEqual([0, 0, 0, 4, 0x22, 0xc3, 0xa9, 0x22]);
    expect(encodeFrame(new Uint8Array([1, 2])).length).toBe(6);
  });

  it('refuses an empty frame and one over the limit', () => {
    expect(() => encodeFrame('')).toThrow(RangeError);
    expect(encodeFrame('x'.repeat(MAX_TCP_FRAME_BYTES)).length).toBe(MAX_TCP_FRAME_BYTES + 4);
    expect(() => encodeFrame('x'.repeat(MAX_TCP_FRAME_BYTES + 1))).toThrow(RangeError);
  });
});

describe('FrameDecoder', () => {
  it('returns several frames from one chunk', () => {
    const decoder = new FrameDecoder();
    const chunk = Buffer.concat([encodeFrame('{"n":1}'), encodeFrame('{"n":2}'), encodeFrame('{"n":3}')]);
    expect(text(decoder.push(chunk))).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
    expect(decoder.bufferedBytes).toBe(0);
  });

  it('reassembles a frame split byte by byte, header included', () => {
    const decoder = new FrameDecoder();
    const frame = encodeFrame('{"split":"over many chunks"}');
    const seen: string[] = [];
    for (let i = 0; i < frame.length; i++) {
      const out = decoder.push(frame.subarray(i, i + 1));
      if (i < frame.length - 1) expect(out).toEqual([]);
      seen.push(...text(out));
    }
    expect(seen).toEqual(['{"split":"over many chunks"}']);
  });

  it('handles frames straddling chunk boundaries at every split point', () => {
    const stream = Buffer.concat([
      encodeFrame('{"a":1}'),
      encodeFrame('{"bb":22}'),
      encodeFrame('{"ccc":333}'),
    ]);
    for (let cut = 0; cut <= stream.length; cut++) {
      const decoder = new FrameDecoder();
      const frames = [
        ...text(decoder.push(stream.subarray(0, cut))),
        ...text(decoder.push(stream.subarray(cut))),
      ];
      expect(frames, `cut at ${cut}`).toEqual(['{"a":1}', '{"bb":22}', '{"ccc":333}']);
    }
  });

  it('returns frames the caller owns: reusing the chunk memory does not change them', () => {
    const decoder = new FrameDecoder();
    const chunk = Buffer.concat([encodeFrame('{"a":1}'), encodeFrame('{"b":2}').subarray(0, 6)]);
    const [first] = decoder.push(chunk);
    chunk.fill(0);
    expect(first?.ok && first.value.toString()).toBe('{"a":1}');
    // The buffered head of the second frame ('{"') was copied too.
    expect(text(decoder.push(Buffer.from('b":2}')))).toEqual(['{"b":2}']);
  });

  it('fails on a zero-length frame and stays failed', () => {
    const decoder = new FrameDecoder();
    const frames = decoder.push(
      Buffer.concat([encodeFrame('{"ok":1}'), header(0), encodeFrame('{"late":1}')]),
    );
    expect(text(frames)).toEqual(['{"ok":1}', '!malformed']);
    expect(text(decoder.push(encodeFrame('{"more":1}')))).toEqual(['!malformed']);
    expect(decoder.bufferedBytes).toBe(0);
  });

  it('accepts a frame of exactly the limit and fails one byte over, before the body arrives', () => {
    const decoder = new FrameDecoder(16);
    expect(text(decoder.push(encodeFrame('x'.repeat(16))))).toEqual(['x'.repeat(16)]);
    expect(text(decoder.push(header(17)))).toEqual(['!oversized']);
    expect(text(decoder.push(Buffer.from('x'.repeat(17))))).toEqual(['!oversized']);
    const huge = new FrameDecoder();
    expect(text(huge.push(header(0xffffffff)))).toEqual(['!oversized']);
    expect(text(new FrameDecoder().push(header(MAX_TCP_FRAME_BYTES + 1)))).toEqual(['!oversized']);
  });

  it('refuses a nonsensical limit', () => {
    expect(() => new FrameDecoder(0)).toThrow(RangeError);
    expect(() => new FrameDecoder(1.5)).toThrow(RangeError);
  });

  it('never throws on random streams', () => {
    const random = mulberry32(0x5eed_0004);
    for (let run = 0; run < 200; run++) {
      const decoder = new FrameDecoder(64);
      for (let i = 0; i < 10; i++) {
        for (const frame of decoder.push(randomBytes(random, 80))) {
          if (!frame.ok) expect(['oversized', 'malformed']).toContain(frame.reason);
        }
      }
    }
  });
});

describe('TcpDirect device messages', () => {
  it('round-trips auth, report and result frames', () => {
    expect(decodeTcpDeviceMessage(body(encodeTcpAuth('S1', 'L-0001', 's3cret')))).toEqual({
      ok: true,
      value: { type: 'auth', stationId: 'S1', code: 'L-0001', secret: 's3cret' },
    });
    expect(JSON.parse(body(encodeTcpAuth('S1', 'L-0001', 's')).toString())).toEqual({
      type: 'auth',
      station: 'S1',
      code: 'L-0001',
      secret: 's',
    });
    const report = {
      messageId: 'm-1',
      reportedAt: 1763750000000,
      event: 'heartbeat' as const,
      battery: 50,
      props: { a: 1 },
    };
    const reportFrame = encodeTcpReport(report);
    expect(JSON.parse(body(reportFrame).toString())).toEqual({
      type: 'report',
      id: 'm-1',
      ts: 1763750000000,
      event: 'heartbeat',
      battery: 50,
      props: { a: 1 },
    });
    expect(decodeTcpDeviceMessage(body(reportFrame))).toEqual({
      ok: true,
      value: { type: 'report', report: { kind: 'report', ...report } },
    });
    const result = { messageId: 'a-1', commandId: 'c-1', outcome: 'Failure' as const, detail: 'jammed' };
    expect(decodeTcpDeviceMessage(body(encodeTcpResult(result)))).toEqual({
      ok: true,
      value: { type: 'result', result: { kind: 'commandResult', ...result } },
    });
    expect(() => encodeTcpResult({ ...result, outcome: 'Sent' })).toThrow(RangeError);
  });

  it('works with the frames FrameDecoder produces', () => {
    const decoder = new FrameDecoder();
    const stream = Buffer.concat([
      encodeTcpAuth('S1', 'L1', ''),
      encodeTcpReport({ messageId: 'm-2', lock: 'open' }),
    ]);
    const decodedFrames = decoder.push(stream).map((f) => (f.ok ? decodeTcpDeviceMessage(f.value) : f));
    expect(decodedFrames.map((m) => m.ok && m.value.type)).toEqual(['auth', 'report']);
  });

  it('refuses bad device messages', () => {
    const cases: Array<[string, string]> = [
      ['{"station":"S1"}', 'invalid'],
      ['{"type":"hello"}', 'unsupported'],
      ['{"type":"auth","station":"S/1","code":"L","secret":""}', 'invalid'],
      ['{"type":"auth","station":"S1","code":"","secret":""}', 'invalid'],
      ['{"type":"auth","station":"S1","code":"L"}', 'invalid'],
      [`{"type":"auth","station":"S1","code":"L","secret":"${'s'.repeat(257)}"}`, 'invalid'],
      ['{"type":"report"}', 'invalid'],
      ['{"type":"report","id":"m","battery":-1}', 'invalid'],
      ['{"type":"result","id":"a","cmd":"c","result":"maybe"}', 'invalid'],
      ['[{"type":"report","id":"m"}]', 'malformed'],
      ['{"type":', 'malformed'],
    ];
    for (const [json, reason] of cases) {
      expect(decodeTcpDeviceMessage(Buffer.from(json)), json).toMatchObject({ ok: false, reason });
    }
    expect(decodeTcpDeviceMessage(Buffer.from([0xc3, 0x28]))).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
  });

  it('accepts a body of exactly MAX_TCP_FRAME_BYTES and refuses one byte more', () => {
    const json = '{"type":"report","id":"m"}';
    const atLimit = Buffer.from(`${json.slice(0, -1)}${' '.repeat(MAX_TCP_FRAME_BYTES - json.length)}}`);
    expect(atLimit.length).toBe(MAX_TCP_FRAME_BYTES);
    expect(decodeTcpDeviceMessage(atLimit).ok).toBe(true);
    expect(decodeTcpDeviceMessage(Buffer.concat([atLimit, Buffer.from(' ')]))).toMatchObject({
      ok: false,
      reason: 'oversized',
    });
  });
});

describe('TcpDirect server messages', () => {
  it('round-trips the receipt of a stored message and refuses a receipt without a usable id', () => {
    expect(decodeTcpServerMessage(body(encodeTcpReceived('m-000123')))).toEqual({
      ok: true,
      value: { type: 'received', id: 'm-000123' },
    });
    expect(decodeTcpServerMessage(Buffer.from('{"type":"received"}'))).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
    expect(decodeTcpServerMessage(Buffer.from('{"type":"received","id":""}'))).toMatchObject({ ok: false });
    expect(decodeTcpServerMessage(Buffer.from(`{"type":"received","id":"${'x'.repeat(65)}"}`))).toMatchObject(
      {
        ok: false,
      },
    );
  });

  it('round-trips authResult and command frames', () => {
    expect(decodeTcpServerMessage(body(encodeTcpAuthResult(true)))).toEqual({
      ok: true,
      value: { type: 'authResult', ok: true },
    });
    expect(decodeTcpServerMessage(body(encodeTcpAuthResult(false)))).toEqual({
      ok: true,
      value: { type: 'authResult', ok: false },
    });
    const command = {
      id: '3f1c2a9e-0b7d-4c1e-9a55-2f8e6d4b1c00',
      cmd: 'open',
      params: { hold: 5 },
      expireAt: 1763750060000,
    };
    const frame = encodeTcpCommand(command);
    expect(JSON.parse(body(frame).toString())).toEqual({
      type: 'command',
      id: command.id,
      cmd: 'open',
      params: { hold: 5 },
      expire: 1763750060000,
    });
    expect(decodeTcpServerMessage(body(frame))).toEqual({ ok: true, value: { type: 'command', command } });
  });

  it('refuses bad server messages', () => {
    expect(decodeTcpServerMessage(Buffer.from('{"type":"authResult","ok":"yes"}'))).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
    expect(decodeTcpServerMessage(Buffer.from('{"type":"command","id":"c"}'))).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
    expect(decodeTcpServerMessage(Buffer.from('{"type":"bye"}'))).toMatchObject({
      ok: false,
      reason: 'unsupported',
    });
    expect(decodeTcpServerMessage(Buffer.from('{}'))).toMatchObject({ ok: false, reason: 'invalid' });
    expect(decodeTcpServerMessage(Buffer.from('true'))).toMatchObject({ ok: false, reason: 'malformed' });
  });
});

describe('TcpDirect decoders on garbage', () => {
  it('never throw', () => {
    const valid = [
      '{"type":"auth","station":"S1","code":"L-1","secret":"x"}',
      '{"type":"report","id":"m","lock":"open","props":{"a":1}}',
      '{"type":"result","id":"a","cmd":"c","result":"success"}',
      '{"type":"command","id":"c","cmd":"open","params":{"a":1}}',
      '{"type":"authResult","ok":true}',
    ];
    for (const input of garbageInputs(0x5eed_0005, valid, 800)) {
      const bytes = typeof input === 'string' ? Buffer.from(input) : input;
      for (const result of [decodeTcpDeviceMessage(bytes), decodeTcpServerMessage(bytes)]) {
        if (!result.ok) expect(['oversized', 'malformed', 'invalid', 'unsupported']).toContain(result.reason);
      }
    }
  });
});
