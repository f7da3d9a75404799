import mqemitter from 'mqemitter';
import { describe, expect, it } from 'vitest';
import { deliveryEmitter } from './delivery-emitter.ts';

type Emitter = ReturnType<typeof mqemitter>;

/**
 * One delivery holds the only slot, then `count` messages nobody subscribed to queue behind it; releasing
 * the slot lets the queue go. Resolves with the order their completions came in.
 */
async function queueBehindOne(emitter: Emitter, count: number): Promise<number[]> {
  let release = () => {};
  emitter.on('hold', (_message, done) => {
    release = done;
  });
  await new Promise<void>((resolve) => setImmediate(resolve));
  emitter.emit({ topic: 'hold' });
  const completed: number[] = [];
  const all = new Promise<void>((resolve) => {
    for (let n = 0; n < count; n++) {
      emitter.emit({ topic: `nobody/${n}`, n }, () => {
        completed.push(n);
        if (completed.length === count) resolve();
      });
    }
  });
  release();
  await all;
  return completed;
}

describe('deliveryEmitter', () => {
  it('mqemitter alone unwinds a long queue on the stack (why the broker uses deliveryEmitter)', async () => {
    await expect(queueBehindOne(mqemitter({ concurrency: 1 }), 20_000)).rejects.toThrow(RangeError);
  });

  it('delivers a long queue of messages that complete at once, in order, without overflowing the stack', async () => {
    const completed = await queueBehindOne(deliveryEmitter({ concurrency: 1 }), 20_000);
    expect(completed).toHaveLength(20_000);
    expect(completed.every((n, i) => n === i)).toBe(true);
  });

  it('keeps the order of a subscriber that answers at once, with new messages arriving while it waits', async () => {
    const emitter = deliveryEmitter({ concurrency: 2, maxDepth: 10 });
    const seen: number[] = [];
    emitter.on('lock/+', (message, done) => {
      seen.push(message.n as number);
      done();
    });
    const releases: Array<() => void> = [];
    emitter.on('hold', (_message, done) => {
      releases.push(done);
    });
    await new Promise<void>((resolve) => setImmediate(resolve));
    emitter.emit({ topic: 'hold' });
    emitter.emit({ topic: 'hold' });
    for (let n = 0; n < 500; n++) emitter.emit({ topic: `lock/${n}`, n });
    releases[0]!();
    // Arrive while the queue waits for its next turn: they go behind it.
    for (let n = 500; n < 600; n++) emitter.emit({ topic: `lock/${n}`, n });
    await new Promise<void>((resolve) => {
      const check = () => (seen.length === 600 ? resolve() : setImmediate(check));
      check();
    });
    expect(seen).toEqual(Array.from({ length: 600 }, (_, n) => n));
    // Every slot taken to wait for a turn was given back: only the other hold is still being delivered.
    expect(emitter.current).toBe(1);
    releases[1]!();
    expect(emitter.current).toBe(0);
  });
});
