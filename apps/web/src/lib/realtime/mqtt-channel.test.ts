import { REALTIME_TIMING } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { ManualScheduler } from './manual-scheduler.ts';
import type { BrokerConnection, BrokerConnectionEvents } from './mqtt-channel.ts';
import { MqttChannel } from './mqtt-channel.ts';
import type { RealtimeStatus } from './realtime-status.ts';

const TOPIC = '/UIOT/S1/#';

/** A broker connection driven by the test. */
class FakeConnection implements BrokerConnection {
  readonly subscriptions: { topic: string; done: (granted: boolean) => void }[] = [];
  ended = false;

  constructor(readonly events: BrokerConnectionEvents) {}

  subscribe(topic: string, done: (granted: boolean) => void): void {
    this.subscriptions.push({ topic, done });
  }

  end(): void {
    this.ended = true;
  }

  grantLast(granted = true): void {
    this.subscriptions.at(-1)?.done(granted);
  }
}

function setUp(connect?: (events: BrokerConnectionEvents) => Promise<BrokerConnection>) {
  const scheduler = new ManualScheduler();
  const connections: FakeConnection[] = [];
  const statuses: RealtimeStatus[] = [];
  const messages: string[] = [];
  const initFailures: unknown[] = [];
  let resubscribed = 0;
  const channel = new MqttChannel({
    connect:
      connect ??
      (async (events) => {
        const connection = new FakeConnection(events);
        connections.push(connection);
        return connection;
      }),
    topic: TOPIC,
    subscribeTimeoutMs: REALTIME_TIMING.mqttSubscribeTimeoutMs,
    resubscribeMs: REALTIME_TIMING.mqttResubscribeMs,
    scheduler,
    onStatus: (status) => statuses.push(status),
    onSubscribed: () => {
      resubscribed += 1;
    },
    onMessage: (payload) => messages.push(new TextDecoder().decode(payload)),
    onInitFailed: (error) => initFailures.push(error),
  });
  return {
    scheduler,
    connections,
    statuses,
    messages,
    initFailures,
    channel,
    resubscribed: () => resubscribed,
    /** The status as the console shows it. */
    status: () => statuses.at(-1),
  };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('MqttChannel', () => {
  it('connects, subscribes to the station topic on connection, and is live once granted', async () => {
    const t = setUp();
    t.channel.start();
    expect(t.status()).toBe('connecting');
    await settled();
    const [connection] = t.connections;
    expect(connection?.subscriptions).toEqual([]);

    connection?.events.connected();
    expect(connection?.subscriptions.map((s) => s.topic)).toEqual([TOPIC]);
    expect(t.status()).toBe('connecting');
    connection?.grantLast();
    expect(t.status()).toBe('live');
    expect(t.resubscribed()).toBe(1);
  });

  it('passes on messages while running', async () => {
    const t = setUp();
    t.channel.start();
    await settled();
    t.connections[0]?.events.message(new TextEncoder().encode('{"kind":"runtime"}'));
    expect(t.messages).toEqual(['{"kind":"runtime"}']);
  });

  it('reports reconnecting when the connection drops and resubscribes on the next connection', async () => {
    const t = setUp();
    t.channel.start();
    await settled();
    const connection = t.connections[0]!;
    connection.events.connected();
    connection.grantLast();

    connection.events.closed();
    expect(t.status()).toBe('reconnecting');
    // the client's own reconnection attempts fail a few times
    connection.events.closed();
    expect(t.status()).toBe('reconnecting');

    connection.events.connected();
    expect(connection.subscriptions).toHaveLength(2);
    expect(t.status()).toBe('reconnecting');
    connection.grantLast();
    expect(t.status()).toBe('live');
    expect(t.resubscribed()).toBe(2);
  });

  it('retries a refused subscription after the resubscribe pause', async () => {
    const t = setUp();
    t.channel.start();
    await settled();
    const connection = t.connections[0]!;
    connection.events.connected();
    connection.grantLast(false);
    t.scheduler.advance(REALTIME_TIMING.mqttResubscribeMs);
    expect(connection.subscriptions).toHaveLength(2);
    connection.grantLast(true);
    expect(t.status()).toBe('live');
  });

  it('drops a pending subscription retry when the connection drops', async () => {
    const t = setUp();
    t.channel.start();
    await settled();
    const connection = t.connections[0]!;
    connection.events.connected();
    connection.grantLast(false);
    connection.events.closed();
    t.scheduler.advance(REALTIME_TIMING.mqttSubscribeTimeoutMs * 2);
    expect(connection.subscriptions).toHaveLength(1);
  });

  it('stops: ends the connection, is off, and ignores what the old connection still reports', async () => {
    const t = setUp();
    t.channel.start();
    await settled();
    const connection = t.connections[0]!;
    connection.events.connected();
    connection.grantLast();
    t.channel.stop();
    expect(connection.ended).toBe(true);
    expect(t.status()).toBe('off');

    connection.events.closed();
    connection.events.connected();
    connection.events.message(new TextEncoder().encode('late'));
    expect(t.status()).toBe('off');
    expect(connection.subscriptions).toHaveLength(1);
    expect(t.messages).toEqual([]);
  });

  it('ends a connection that opens after the channel was stopped', async () => {
    const t = setUp();
    t.channel.start();
    t.channel.stop();
    await settled();
    expect(t.connections[0]?.ended).toBe(true);
    expect(t.status()).toBe('off');
  });

  it('starts again with a new connection after a stop', async () => {
    const t = setUp();
    t.channel.start();
    await settled();
    t.channel.stop();
    t.channel.start();
    await settled();
    expect(t.connections).toHaveLength(2);
    expect(t.connections[0]?.ended).toBe(true);
    expect(t.connections[1]?.ended).toBe(false);
    t.connections[1]?.events.connected();
    t.connections[1]?.grantLast();
    expect(t.status()).toBe('live');
  });

  it('reports an init failure when the client cannot be created, and is off', async () => {
    const failure = new Error('chunk failed to load');
    const t = setUp(() => Promise.reject(failure));
    t.channel.start();
    await settled();
    expect(t.initFailures).toEqual([failure]);
    expect(t.status()).toBe('off');
  });

  it('stays silent about a failed creation it no longer waits for', async () => {
    const t = setUp(() => Promise.reject(new Error('late')));
    t.channel.start();
    t.channel.stop();
    await settled();
    expect(t.initFailures).toEqual([]);
  });
});
