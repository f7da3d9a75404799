import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { coalesceWrites } from './coalesced-writes.ts';

/** A stream recording each call that reaches its underlying resource, and what it carried. */
function recordingStream() {
  const calls: string[][] = [];
  const stream = new Writable({
    writev(chunks, callback) {
      calls.push(chunks.map((c) => String(c.chunk)));
      callback();
    },
    write(chunk, _encoding, callback) {
      calls.push([String(chunk)]);
      callback();
    },
  });
  return { stream, calls };
}

/** As mqtt-packet writes a packet: corked, its parts written, uncorked on the next tick. */
function writePacket(stream: Writable, parts: string[]): void {
  stream.cork();
  for (const part of parts) stream.write(part);
  process.nextTick(() => stream.uncork());
}

/** Until the event loop has passed its check phase (where the deferred uncork runs). */
const afterTurn = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('coalesceWrites', () => {
  it('sends the packets written in one turn of the event loop in one call, in order', async () => {
    const { stream, calls } = recordingStream();
    coalesceWrites(stream);
    writePacket(stream, ['a1', 'a2']);
    writePacket(stream, ['b1']);
    process.nextTick(() => writePacket(stream, ['c1', 'c2']));
    await new Promise((resolve) => process.nextTick(resolve));
    await Promise.resolve();
    expect(calls).toEqual([]);
    await afterTurn();
    expect(calls).toEqual([['a1', 'a2', 'b1', 'c1', 'c2']]);
  });

  it('leaves nothing corked: a later turn is sent at its end, a plain write at once', async () => {
    const { stream, calls } = recordingStream();
    coalesceWrites(stream);
    writePacket(stream, ['a']);
    await afterTurn();
    writePacket(stream, ['b']);
    await afterTurn();
    expect(calls).toEqual([['a'], ['b']]);
    expect(stream.writableCorked).toBe(0);
    stream.write('c');
    expect(calls).toEqual([['a'], ['b'], ['c']]);
  });

  it('sends what is held before the stream is ended or destroyed', async () => {
    for (const close of ['end', 'destroy'] as const) {
      const { stream, calls } = recordingStream();
      coalesceWrites(stream);
      writePacket(stream, ['refused']);
      await new Promise((resolve) => process.nextTick(resolve));
      stream[close]();
      await afterTurn();
      expect(calls).toEqual([['refused']]);
    }
  });

  it('without it, every packet is a call of its own', async () => {
    const { stream, calls } = recordingStream();
    writePacket(stream, ['a']);
    await new Promise((resolve) => process.nextTick(resolve));
    writePacket(stream, ['b']);
    await afterTurn();
    expect(calls).toEqual([['a'], ['b']]);
  });
});
