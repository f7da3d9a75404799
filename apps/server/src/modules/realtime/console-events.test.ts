import { type ConsoleEvent, consoleEvent, type OperationChange, type RuntimeChange } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { recordingLogger } from '../../lib/test-support.ts';
import { ConsoleEventPublisher, consoleEventMessages, type PublisherClock } from './console-events.ts';

/** A clock whose time moves only when told, running the timers that fall due. */
function manualClock(): PublisherClock & { advance(ms: number): void; readonly timers: number } {
  let now = 1_000;
  let nextId = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  return {
    now: () => now,
    setTimeout(run, ms) {
      const id = nextId++;
      timers.set(id, { at: now + ms, run });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= until)
          .sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].run();
      }
      now = until;
    },
    get timers() {
      return timers.size;
    },
  };
}

function fakeBus() {
  const sent: Array<{ topic: string; event: ConsoleEvent; options: unknown }> = [];
  return {
    sent,
    connected: true,
    fail: null as Error | null,
    throwNow: false,
    async publish(topic: string, payload: string, options: unknown) {
      if (this.throwNow) throw new Error('publish threw');
      if (this.fail) return Promise.reject(this.fail);
      sent.push({ topic, event: consoleEvent.parse(JSON.parse(payload)), options });
    },
  };
}

const change = (n: number): RuntimeChange => ({
  deviceId: `d${n}`,
  messageId: `m${n}`,
  online: true,
  lastCollectTime: new Date(1_700_000_000_000 + n).toISOString(),
  battery: n,
});

function setup(options: { windowMs?: number; maxChanges?: number; bytesPerSecond?: number } = {}) {
  const clock = manualClock();
  const bus = fakeBus();
  const log = recordingLogger();
  const publisher = new ConsoleEventPublisher({ transport: bus, logger: log.logger, clock, ...options });
  return { clock, bus, log, publisher };
}

describe('ConsoleEventPublisher', () => {
  it('publishes the first change after a quiet spell at once, QoS 0, not retained, on the station’s topic', () => {
    const { bus, publisher } = setup();
    publisher.runtime('S1', [change(1)]);
    expect(bus.sent).toEqual([
      {
        topic: '/UIOT/S1/runtime',
        event: { kind: 'runtime', changes: [change(1)] },
        options: { qos: 0, retain: false },
      },
    ]);
  });

  it('collects what follows within the window into one message per station and kind, in order', () => {
    const { clock, bus, publisher } = setup({ windowMs: 50 });
    publisher.runtime('S1', [change(1)]);
    clock.advance(10);
    publisher.runtime('S1', [change(2)]);
    publisher.runtime('S2', [change(3)]);
    publisher.runtime('S1', [change(4), change(5)]);
    // S2 had been quiet: it goes at once; S1 waits for the end of its window.
    expect(bus.sent.map((m) => m.topic)).toEqual(['/UIOT/S1/runtime', '/UIOT/S2/runtime']);
    clock.advance(39);
    expect(bus.sent).toHaveLength(2);
    clock.advance(1);
    expect(bus.sent).toHaveLength(3);
    expect(bus.sent[2]).toMatchObject({
      topic: '/UIOT/S1/runtime',
      event: { kind: 'runtime', changes: [change(2), change(4), change(5)] },
    });
    // A quiet window later, the next change goes at once again.
    clock.advance(100);
    publisher.runtime('S1', [change(6)]);
    expect(bus.sent).toHaveLength(4);
  });

  it('keeps runtime and command changes apart', () => {
    const { bus, publisher } = setup();
    publisher.runtime('S1', [change(1)]);
    publisher.commands('S1', [
      {
        id: 'c1',
        deviceId: 'd1',
        cmdCode: 'open',
        name: 'Open',
        state: 'Waitting',
        attempts: 0,
        sendFlag: false,
        updateTime: new Date(0).toISOString(),
      },
    ]);
    expect(bus.sent.map((m) => [m.topic, m.event.kind])).toEqual([
      ['/UIOT/S1/runtime', 'runtime'],
      ['/UIOT/S1/command', 'command'],
    ]);
  });

  it("merges a device's later changes within a window into its earlier one, keeping what a report left out", () => {
    const { clock, bus, publisher } = setup({ windowMs: 50 });
    publisher.runtime('S1', [change(1)]);
    const first: RuntimeChange = { ...change(2), lockState: 'closed', reportTime: new Date(5).toISOString() };
    const later: RuntimeChange = {
      deviceId: 'd2',
      messageId: 'm9',
      online: true,
      lastCollectTime: 'later',
      battery: 7,
    };
    publisher.runtime('S1', [first, change(3)]);
    publisher.runtime('S1', [later]);
    clock.advance(50);
    expect(bus.sent[1]!.event.changes).toEqual([
      {
        deviceId: 'd2',
        messageId: 'm9',
        online: true,
        lastCollectTime: 'later',
        battery: 7,
        lockState: 'closed',
      },
      change(3),
    ]);
    const command = (state: 'Waitting' | 'Success', attempts: number) => ({
      id: 'c1',
      deviceId: 'd1',
      cmdCode: 'open',
      name: '开锁',
      state,
      attempts,
      sendFlag: true,
      updateTime: new Date(attempts).toISOString(),
    });
    publisher.commands('S1', [command('Waitting', 1)]);
    publisher.commands('S1', [command('Waitting', 2)]);
    publisher.commands('S1', [command('Success', 3)]);
    clock.advance(50);
    expect(bus.sent.filter((m) => m.event.kind === 'command').map((m) => m.event.changes)).toEqual([
      [command('Waitting', 1)],
      [command('Success', 3)],
    ]);
  });

  it("keeps an operation record's final result over a stale 'sent' copy announced after it", () => {
    const { clock, bus, publisher } = setup({ windowMs: 50 });
    const record = (id: string, result: OperationChange['result']): OperationChange => ({
      id,
      deviceId: 'd1',
      deviceName: 'Cable room door',
      deviceCode: 'L-1',
      staffId: 's1',
      staffName: 'Wang Fang',
      keyId: null,
      keyName: null,
      lockCode: null,
      taskId: null,
      taskName: null,
      authorizationId: 'g1',
      action: 'open',
      opMethod: 'remote',
      source: 'console',
      result,
      refusal: null,
      commandId: 'c1',
      commandState: null,
      covered: null,
      photoFileId: null,
      operateTime: new Date(1_700_000_000_000).toISOString(),
      uploadTime: null,
      stationId: 'S1',
    });
    publisher.operations('S1', [record('r0', 'sent')]);
    publisher.operations('S1', [record('r1', 'sent'), record('r2', 'sent')]);
    publisher.operations('S1', [record('r1', 'succeeded'), record('r2', 'failed')]);
    publisher.operations('S1', [record('r1', 'sent'), record('r2', 'sent')]);
    clock.advance(50);
    expect(bus.sent.map((m) => m.event.changes)).toEqual([
      [record('r0', 'sent')],
      [record('r1', 'succeeded'), record('r2', 'failed')],
    ]);
  });

  it('stretches a window to keep to the bytes a second allowed', () => {
    const { clock, bus, publisher } = setup({ windowMs: 50, bytesPerSecond: 10_000 });
    const changes = Array.from({ length: 20 }, (_, i) => change(i));
    publisher.runtime('S1', changes);
    const bytes = Buffer.byteLength(JSON.stringify(bus.sent[0]!.event));
    expect(bytes).toBeGreaterThan(1_000);
    // The next message may go once the first one's bytes have taken their time at 10 000 bytes a second.
    publisher.runtime('S1', [change(100)]);
    clock.advance(Math.floor(bytes / 10) - 1);
    expect(bus.sent).toHaveLength(1);
    clock.advance(2);
    expect(bus.sent).toHaveLength(2);
  });

  it('splits a large batch into messages of at most maxChanges, in order', () => {
    const { bus, publisher } = setup({ maxChanges: 500 });
    const changes = Array.from({ length: 1_203 }, (_, i) => change(i));
    publisher.runtime('S1', changes);
    expect(bus.sent.map((m) => m.event.changes.length)).toEqual([500, 500, 203]);
    expect(bus.sent.flatMap((m) => m.event.changes as RuntimeChange[])).toEqual(changes);
  });

  it('drops changes while the bus is down and publishes nothing for them later', () => {
    const { clock, bus, publisher } = setup();
    publisher.runtime('S1', [change(1)]);
    publisher.runtime('S1', [change(2)]); // waits for the window
    bus.connected = false;
    clock.advance(50);
    publisher.runtime('S1', [change(3)]);
    bus.connected = true;
    clock.advance(200);
    publisher.runtime('S1', [change(4)]);
    expect(bus.sent.flatMap((m) => m.event.changes.map((c) => c.deviceId))).toEqual(['d1', 'd4']);
  });

  it('never throws into its caller when publishing fails, and logs it without the payload', async () => {
    const { clock, bus, log, publisher } = setup();
    bus.throwNow = true;
    expect(() => publisher.runtime('S1', [change(1)])).not.toThrow();
    bus.throwNow = false;
    bus.fail = new Error('broker refused');
    clock.advance(100);
    expect(() => publisher.runtime('S1', [change(2)])).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(log.lines.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(log.lines)).not.toContain('m1');
    expect(JSON.stringify(log.lines)).not.toContain('battery');
  });

  it('publishes what it holds on close and takes nothing after', () => {
    const { clock, bus, publisher } = setup();
    publisher.runtime('S1', [change(1)]);
    publisher.runtime('S1', [change(2)]);
    publisher.close();
    expect(bus.sent).toHaveLength(2);
    expect(clock.timers).toBe(0);
    publisher.runtime('S1', [change(3)]);
    clock.advance(1_000);
    expect(bus.sent).toHaveLength(2);
  });
});

describe('consoleEventMessages', () => {
  it('splits by size as well as by count, never leaving a message empty', () => {
    const big = (n: number): RuntimeChange => ({ ...change(n), messageId: 'x'.repeat(600) });
    const messages = consoleEventMessages('runtime', [big(1), big(2), big(3)], 500, 1_600);
    expect(messages.map((m) => (JSON.parse(m) as ConsoleEvent).changes.length)).toEqual([2, 1]);
    for (const m of messages) expect(m.length).toBeLessThanOrEqual(1_600);
    expect(consoleEventMessages('runtime', [big(1)], 500, 100)).toHaveLength(1);
    expect(consoleEventMessages('runtime', [], 500, 1_400)).toEqual([]);
  });

  it('counts bytes, not characters, of text in other scripts', () => {
    const named = (n: number) => ({
      id: `c${n}`,
      deviceId: 'd1',
      cmdCode: 'setParam',
      name: '设置参数'.repeat(30),
      state: 'Waitting' as const,
      attempts: 0,
      sendFlag: false,
      updateTime: new Date(0).toISOString(),
    });
    const messages = consoleEventMessages('command', [named(1), named(2), named(3)], 500, 1_000);
    expect(messages).toHaveLength(3);
    for (const m of messages) expect(Buffer.byteLength(m)).toBeLessThanOrEqual(1_000);
  });
});
