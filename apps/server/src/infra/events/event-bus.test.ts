import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import type { ModuleLogger } from '../../lib/module-logger.ts';
import { releasable } from '../../lib/test-support.ts';
import { EventBus, unsubscribeAll } from './event-bus.ts';
import type { EventChannel } from './event-channel.ts';

declare module './event-bus.ts' {
  interface DomainEvents {
    'test.happened': { n: number };
    'test.other': { text: string };
  }
}

function recordingLogger(): ModuleLogger & { errors: Array<Record<string, unknown>> } {
  const errors: Array<Record<string, unknown>> = [];
  return {
    info: () => {},
    warn: () => {},
    error: (obj) => errors.push(obj as Record<string, unknown>),
    errors,
  };
}

/** A database whose transaction runs the work and commits unless it throws (what the bus relies on). */
const fakeDb = {
  transaction: async <T>(work: (tx: unknown) => Promise<T>) => work({}),
} as unknown as Db;

/** Channels of one process joined together, as PostgreSQL NOTIFY joins instances. */
function joinedChannels(count: number): EventChannel[] {
  const handlers: Array<((message: string) => void) | null> = Array.from({ length: count }, () => null);
  return handlers.map((_, i) => ({
    async send(message) {
      for (const handler of handlers) queueMicrotask(() => handler?.(message));
    },
    receive(handler) {
      handlers[i] = handler;
    },
    async close() {
      handlers[i] = null;
    },
  }));
}

describe('EventBus', () => {
  it('delivers events in the order published, to handlers in the order they subscribed', () => {
    const bus = new EventBus();
    const heard: string[] = [];
    bus.subscribe('test.happened', 'first', ({ n }) => void heard.push(`first ${n}`));
    bus.subscribe('test.happened', 'second', ({ n }) => void heard.push(`second ${n}`));
    bus.subscribe('test.other', 'third', ({ text }) => void heard.push(`third ${text}`));
    bus.publish('test.happened', { n: 1 });
    bus.publish('test.other', { text: 'x' });
    bus.publish('test.happened', { n: 2 });
    expect(heard).toEqual(['first 1', 'second 1', 'third x', 'first 2', 'second 2']);
  });

  it('stops delivering to a handler that unsubscribed', () => {
    const bus = new EventBus();
    const heard: number[] = [];
    const stop = bus.subscribe('test.happened', 'one', ({ n }) => void heard.push(n));
    bus.publish('test.happened', { n: 1 });
    stop();
    bus.publish('test.happened', { n: 2 });
    expect(heard).toEqual([1]);
  });

  it('unsubscribes several handlers at once', () => {
    const bus = new EventBus();
    const heard: string[] = [];
    const stop = unsubscribeAll([
      bus.subscribe('test.happened', 'one', () => void heard.push('happened')),
      bus.subscribe('test.other', 'one', () => void heard.push('other')),
    ]);
    stop();
    bus.publish('test.happened', { n: 1 });
    bus.publish('test.other', { text: 'x' });
    expect(heard).toEqual([]);
  });

  it('holds what a transaction publishes until it commits', async () => {
    const bus = new EventBus();
    const heard: string[] = [];
    bus.subscribe('test.happened', 'listener', ({ n }) => void heard.push(`event ${n}`));
    await bus.transaction(fakeDb, async () => {
      bus.publish('test.happened', { n: 1 });
      await Promise.resolve();
      bus.publish('test.happened', { n: 2 });
      heard.push('before commit');
    });
    expect(heard).toEqual(['before commit', 'event 1', 'event 2']);
  });

  it('drops what a transaction published when it rolls back', async () => {
    const bus = new EventBus();
    const heard: number[] = [];
    bus.subscribe('test.happened', 'listener', ({ n }) => void heard.push(n));
    await expect(
      bus.transaction(fakeDb, async () => {
        bus.publish('test.happened', { n: 1 });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    bus.publish('test.happened', { n: 2 });
    expect(heard).toEqual([2]);
  });

  it('lets the outermost unit of work decide when nested units deliver', async () => {
    const bus = new EventBus();
    const heard: string[] = [];
    bus.subscribe('test.happened', 'listener', ({ n }) => void heard.push(`event ${n}`));
    await bus.afterCommit(async () => {
      await bus.afterCommit(async () => bus.publish('test.happened', { n: 1 }));
      heard.push('inner done');
    });
    expect(heard).toEqual(['inner done', 'event 1']);
  });

  it('does not mix up the events of concurrent transactions', async () => {
    const bus = new EventBus();
    const heard: number[] = [];
    bus.subscribe('test.happened', 'listener', ({ n }) => void heard.push(n));
    const { promise: held, release } = releasable();
    const slow = bus.transaction(fakeDb, async () => {
      bus.publish('test.happened', { n: 1 });
      await held;
    });
    await bus.transaction(fakeDb, async () => bus.publish('test.happened', { n: 2 }));
    expect(heard).toEqual([2]);
    release();
    await slow;
    expect(heard).toEqual([2, 1]);
  });

  it('logs a failing handler and still runs the others; the publisher is not troubled', async () => {
    const logger = recordingLogger();
    const bus = new EventBus(logger);
    const heard: string[] = [];
    bus.subscribe('test.happened', 'thrower', () => {
      throw new Error('handler broke');
    });
    bus.subscribe('test.happened', 'rejecter', async () => {
      throw new Error('async handler broke');
    });
    bus.subscribe('test.happened', 'steady', ({ n }) => void heard.push(`steady ${n}`));
    const result = await bus.transaction(fakeDb, async () => {
      bus.publish('test.happened', { n: 1 });
      return 'committed';
    });
    expect(result).toBe('committed');
    expect(heard).toEqual(['steady 1']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(logger.errors).toEqual([
      { event: 'test.happened', subscriber: 'thrower', error: 'handler broke' },
      { event: 'test.happened', subscriber: 'rejecter', error: 'async handler broke' },
    ]);
  });

  it('carries shared events to the other instances, once, and keeps the others at home', async () => {
    const [one, two] = [new EventBus(), new EventBus()];
    const [channelOne, channelTwo] = joinedChannels(2);
    one.declareShared('test.happened');
    two.declareShared('test.happened');
    one.connect(channelOne!);
    two.connect(channelTwo!);
    const heardOne: string[] = [];
    const heardTwo: string[] = [];
    one.subscribe('test.happened', 'one', ({ n }) => void heardOne.push(`happened ${n}`));
    two.subscribe('test.happened', 'two', ({ n }) => void heardTwo.push(`happened ${n}`));
    two.subscribe('test.other', 'two', ({ text }) => void heardTwo.push(`other ${text}`));
    one.publish('test.happened', { n: 1 });
    one.publish('test.other', { text: 'local only' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(heardOne).toEqual(['happened 1']);
    expect(heardTwo).toEqual(['happened 1']);
  });
});
