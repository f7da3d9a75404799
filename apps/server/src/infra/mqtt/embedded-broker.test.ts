import { createConnection } from 'node:net';
import { encodeConnect, encodePublish, encodeSubscribe, encodeTopicName } from '@uiot/simulator';
import { connectAsync, type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { freePorts, isAlive, recordingLogger, waitFor } from '../../lib/test-support.ts';
import { type BusClient, connectBus } from './bus-client.ts';
import { type BrokerAuthRequest, type EmbeddedBroker, startEmbeddedBroker } from './embedded-broker.ts';
import type { BrokerIdentity } from './topic-acl.ts';

const TOKEN = 'session-token-of-alice';
const READER_TOKEN = 'session-token-of-reader';
const ALICE: BrokerIdentity = {
  kind: 'console',
  stationId: 'S1',
  session: 'session-of-alice',
  kinds: ['runtime', 'command'],
};

describe('embedded broker, end to end', () => {
  const { lines, logger } = recordingLogger();
  const calls: BrokerAuthRequest[] = [];
  /** What the reader's session may read now: the server's answer to the broker's questions about it. */
  let reader: BrokerIdentity | null = null;
  let recheckFails = false;
  // Answers whatever the transport: the broker itself keeps each kind of client on its own listener.
  const authorize = async (req: BrokerAuthRequest): Promise<BrokerIdentity | null> => {
    calls.push(req);
    if (req.username === 'boom') throw new Error('database unavailable');
    if (req.username === 'alice' && req.password === TOKEN) return ALICE;
    if (req.username === 'reader' && req.password === READER_TOKEN) return reader;
    if (req.username === 'L-0001' && req.password === 'lock-secret') {
      return { kind: 'device', stationId: 'S1', deviceCode: 'L-0001' };
    }
    return null;
  };
  const clients: MqttClient[] = [];
  let broker: EmbeddedBroker;
  let bus: BusClient;
  let clientSeq = 0;

  async function browser(options: IClientOptions = {}): Promise<MqttClient> {
    const client = await connectAsync(
      broker.wsUrl,
      {
        protocolVersion: 4,
        username: 'alice',
        password: TOKEN,
        clientId: `browser-${++clientSeq}`,
        reconnectPeriod: 0,
        connectTimeout: 5_000,
        ...options,
      },
      false,
    );
    clients.push(client);
    return client;
  }

  function nextMessage(client: MqttClient): Promise<{ topic: string; payload: string }> {
    return new Promise((resolve) => {
      client.once('message', (topic, payload) => resolve({ topic, payload: payload.toString() }));
    });
  }

  beforeAll(async () => {
    const [port, wsPort] = await freePorts(2);
    broker = await startEmbeddedBroker({
      host: '127.0.0.1',
      port: port!,
      wsPort: wsPort!,
      authorize,
      recheckConsole: async ({ session, username }) => {
        if (recheckFails) throw new Error('database unavailable');
        return session === 'session-of-reader' && username === 'reader' ? reader : null;
      },
      logger,
    });
    bus = await connectBus({
      url: broker.url,
      ...broker.internalCredentials,
      clientId: 'uiot-server-test',
      logger,
      reconnectPeriodMs: 200,
    });
  });

  afterAll(async () => {
    for (const client of clients) client.end(true);
    await bus?.close();
    await broker?.stop();
  });

  it('exposes where to connect', () => {
    expect(broker.url).toBe(`mqtt://127.0.0.1:${broker.port}`);
    expect(broker.wsUrl).toBe(`ws://127.0.0.1:${broker.wsPort}/mqtt`);
    expect(broker.pid).toBeGreaterThan(0);
    expect(bus.connected).toBe(true);
  });

  it('delivers what the server publishes to a console client of that station, over WebSocket', async () => {
    const client = await browser();
    const granted = await client.subscribeAsync('/UIOT/S1/#', { qos: 0 });
    expect(granted[0]?.qos).toBe(0);
    const received = nextMessage(client);
    await bus.publish('/UIOT/S1/runtime/L-0001', JSON.stringify({ state: 'open' }), { qos: 1 });
    expect(await received).toEqual({ topic: '/UIOT/S1/runtime/L-0001', payload: '{"state":"open"}' });
    expect(calls.at(-1)).toEqual({
      clientId: client.options.clientId,
      username: 'alice',
      password: TOKEN,
      transport: 'ws',
    });
  });

  it("refuses a subscription to another station's topics with the failure code, keeping the connection", async () => {
    const client = await browser();
    await expect(client.subscribeAsync('/UIOT/S2/#', { qos: 0 })).rejects.toThrow(/Subscribe error/);
    await expect(client.subscribeAsync('/UIOT/S1/#', { qos: 1 })).rejects.toThrow(/Subscribe error/);
    await expect(client.subscribeAsync('#', { qos: 0 })).rejects.toThrow(/Subscribe error/);
    expect(client.connected).toBe(true);

    // nothing of station S2 reaches it
    await client.subscribeAsync('/UIOT/S1/#', { qos: 0 });
    const received = nextMessage(client);
    await bus.publish('/UIOT/S2/command/x', 'other station', { qos: 1 });
    await bus.publish('/UIOT/S1/command/x', 'own station', { qos: 1 });
    expect(await received).toEqual({ topic: '/UIOT/S1/command/x', payload: 'own station' });
  });

  it('finding 5: refuses a browser identity on the TCP listener and a device one on the WebSocket listener', async () => {
    const options = { protocolVersion: 4 as const, reconnectPeriod: 0, connectTimeout: 5_000 };
    await expect(
      connectAsync(
        broker.url,
        { ...options, username: 'alice', password: TOKEN, clientId: 'tcp-alice' },
        false,
      ),
    ).rejects.toThrow(/Bad username or password/);
    await expect(
      connectAsync(
        broker.wsUrl,
        { ...options, username: 'L-0001', password: 'lock-secret', clientId: 'ws-lock' },
        false,
      ),
    ).rejects.toThrow(/Bad username or password/);
    // Each on its own listener is admitted.
    const lock = await connectAsync(
      broker.url,
      { ...options, username: 'L-0001', password: 'lock-secret', clientId: 'tcp-lock' },
      false,
    );
    clients.push(lock);
    expect((await browser()).connected).toBe(true);
  });

  describe('finding 6: a console receives only the kinds it reads, as they are now', () => {
    /** A console of the reader, subscribed to its whole station; collects the topics it receives. */
    async function readerConsole(clientId: string) {
      const client = await browser({ username: 'reader', password: READER_TOKEN, clientId });
      await client.subscribeAsync('/UIOT/S1/#', { qos: 0 });
      const topics: string[] = [];
      client.on('message', (topic) => topics.push(topic));
      return { client, topics };
    }

    /** Publishes one message of each kind, then a marker the test waits for. */
    async function publishEachKind(marker: string): Promise<void> {
      for (const kind of ['runtime', 'command', 'alarm']) {
        await bus.publish(`/UIOT/S1/${kind}`, kind, { qos: 1 });
      }
      await bus.publish(`/UIOT/S1/runtime/${marker}`, marker, { qos: 1 });
      await bus.publish(`/UIOT/S1/command/${marker}`, marker, { qos: 1 });
    }

    it('delivers the kinds it reads and drops the others, and refuses subscribing to a kind it does not read', async () => {
      reader = { kind: 'console', stationId: 'S1', session: 'session-of-reader', kinds: ['runtime'] };
      const { client, topics } = await readerConsole('reader-1');
      await publishEachKind('m1');
      await waitFor(() => topics.includes('/UIOT/S1/runtime/m1'), 5_000, 'the marker');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(topics).toEqual(['/UIOT/S1/runtime', '/UIOT/S1/runtime/m1']);
      await expect(client.subscribeAsync('/UIOT/S1/command', { qos: 0 })).rejects.toThrow(/Subscribe error/);
      expect(client.connected).toBe(true);
    });

    it('stops delivering a kind at once when the session loses it, and starts when it gains one', async () => {
      reader = { kind: 'console', stationId: 'S1', session: 'session-of-reader', kinds: ['runtime'] };
      const { client, topics } = await readerConsole('reader-2');
      reader = { ...reader, kinds: ['command'] };
      broker.refreshConsoles({ username: 'reader' });
      // The recheck is answered within a few milliseconds; the connection stays open.
      await new Promise((resolve) => setTimeout(resolve, 100));
      await publishEachKind('m2');
      await waitFor(() => topics.includes('/UIOT/S1/command/m2'), 5_000, 'the marker');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(topics).toEqual(['/UIOT/S1/command', '/UIOT/S1/command/m2']);
      expect(client.connected).toBe(true);

      // A new connection is not served the answer cached before the change.
      const again = await readerConsole('reader-1');
      await publishEachKind('m3');
      await waitFor(() => again.topics.includes('/UIOT/S1/command/m3'), 5_000, 'the marker');
      expect(again.topics).not.toContain('/UIOT/S1/runtime');
    });

    it('disconnects the consoles of a session that ended, or that cannot be checked', async () => {
      reader = { kind: 'console', stationId: 'S1', session: 'session-of-reader', kinds: ['runtime'] };
      const ended = await readerConsole('reader-4');
      const closed = new Promise<void>((resolve) => ended.client.once('close', () => resolve()));
      reader = null;
      broker.refreshConsoles({ session: 'session-of-reader' });
      await closed;

      reader = { kind: 'console', stationId: 'S1', session: 'session-of-reader', kinds: ['runtime'] };
      const unchecked = await readerConsole('reader-5');
      const closedToo = new Promise<void>((resolve) => unchecked.client.once('close', () => resolve()));
      recheckFails = true;
      try {
        broker.refreshConsoles({});
        await closedToo;
      } finally {
        recheckFails = false;
      }
    });
  });

  it('refuses publishing by a console client (MQTT 3.1.1: the connection is closed)', async () => {
    const seen: string[] = [];
    const unsubscribe = await bus.subscribe('/UIOT/#', { qos: 0 }, (topic) => {
      seen.push(topic);
    });
    const client = await browser();
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.publish('/UIOT/S1/command/L-0001', 'open');
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen).toEqual([]);
    await unsubscribe();
  });

  it('refuses bad credentials', async () => {
    await expect(browser({ password: 'wrong' })).rejects.toThrow(/Bad username or password/);
    await expect(browser({ username: undefined, password: undefined })).rejects.toThrow(
      /Bad username or password/,
    );
  });

  it('refuses a wrong internal password without asking the server', async () => {
    const before = calls.length;
    await expect(
      connectAsync(
        broker.url,
        {
          protocolVersion: 4,
          username: broker.internalCredentials.username,
          password: 'guess',
          reconnectPeriod: 0,
        },
        false,
      ),
    ).rejects.toThrow(/Bad username or password/);
    expect(calls.length).toBe(before);
  });

  it('refuses as "server unavailable" when authorize fails', async () => {
    await expect(browser({ username: 'boom' })).rejects.toThrow(/Server unavailable/);
  });

  it('caches answers of authorize', async () => {
    const first = await browser({ clientId: 'cached-browser' });
    first.end(true);
    const second = await browser({ clientId: 'cached-browser' });
    expect(second.connected).toBe(true);
    expect(calls.filter((c) => c.clientId === 'cached-browser')).toHaveLength(1);
  });

  it('disconnects the clients of a revoked username and asks the server again', async () => {
    const client = await browser({ clientId: 'revoked-browser' });
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    broker.revoke('alice');
    await closed;
    const before = calls.filter((c) => c.clientId === 'revoked-browser').length;
    await browser({ clientId: 'revoked-browser' });
    expect(calls.filter((c) => c.clientId === 'revoked-browser')).toHaveLength(before + 1);
  });

  it('serves $share subscriptions as plain ones when told the broker has none (aedes)', async () => {
    const second = await connectBus({
      url: broker.url,
      ...broker.internalCredentials,
      clientId: 'uiot-server-test-2',
      logger,
      sharedSubscriptions: false,
    });
    try {
      const got: string[] = [];
      // two handlers asking at once share one broker subscription
      const offs = await Promise.all(
        ['a', 'b'].map((name) =>
          second.subscribe('$share/uiot/dev/+/+/up', { qos: 1 }, (topic) => {
            got.push(`${name} ${topic}`);
          }),
        ),
      );
      await bus.publish('dev/S1/L-0001/up', '{}', { qos: 1 });
      await waitFor(() => got.length === 2, 5_000, 'the message, once per handler');
      expect(got.sort()).toEqual(['a dev/S1/L-0001/up', 'b dev/S1/L-0001/up']);
      for (const off of offs) await off();
    } finally {
      await second.close();
    }
  });

  it("does not let a client take over the server's own client id", async () => {
    await expect(browser({ clientId: 'uiot-server-test' })).rejects.toThrow(/Identifier rejected/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(bus.connected).toBe(true);
  });

  it('closes connections that announce an oversized packet', async () => {
    const socket = createConnection({ port: broker.port, host: '127.0.0.1' });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => {});
    // CONNECT with a remaining length of 128 MiB (varint 0x80 0x80 0x80 0x40)
    socket.write(Buffer.from([0x10, 0x80, 0x80, 0x80, 0x40]));
    await closed;
  });

  it('takes a burst of many read chunks from one device whole and in order, a large packet included', async () => {
    const received: string[] = [];
    const unsubscribe = await bus.subscribe('dev/S1/L-0001/up', { qos: 1 }, (_topic, payload) => {
      received.push(payload.toString());
    });
    const socket = createConnection({ port: broker.port, host: '127.0.0.1' });
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let connacked = false;
    let acks = 0;
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 2 && pending.length >= 2 + (pending[1] as number)) {
        if (pending[0] === 0x20 && pending[3] === 0) connacked = true;
        if (pending[0] === 0x40) acks += 1;
        pending = pending.subarray(2 + (pending[1] as number));
      }
    });
    socket.write(
      encodeConnect({
        clientId: 'L-0001',
        username: 'L-0001',
        password: 'lock-secret',
        keepAliveSeconds: 60,
        cleanSession: true,
      }),
    );
    await waitFor(() => connacked, 5_000, 'CONNACK');
    const count = 3000;
    const upTopic = encodeTopicName('dev/S1/L-0001/up');
    const payloads = Array.from({ length: count }, (_, i) =>
      i === 1500 || i === count - 1 ? `big-${'x'.repeat(60_000)}` : `report-${i}-${'y'.repeat(i % 97)}`,
    );
    // One write of ~450 KB: aedes reads it in bounded chunks, some of them inside one large packet (the last).
    socket.write(Buffer.concat(payloads.map((payload, i) => encodePublish(upTopic, i + 1, payload))));
    await waitFor(() => received.length === count && acks === count, 15_000, 'every report and PUBACK');
    expect(received).toEqual(payloads);
    socket.destroy();
    await unsubscribe();
  });

  it('a console that stops reading holds up no other delivery, and is disconnected once too far behind', async () => {
    // A browser that signs in and subscribes, then reads nothing more (a laptop asleep, a frozen tab).
    const ws = new WebSocket(broker.wsUrl, 'mqtt');
    ws.on('error', () => {});
    const frames: Buffer[] = [];
    ws.on('message', (data: Buffer) => frames.push(data));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(
      encodeConnect({
        clientId: 'asleep',
        username: 'alice',
        password: TOKEN,
        keepAliveSeconds: 600,
        cleanSession: true,
      }),
    );
    ws.send(encodeSubscribe(1, '/UIOT/S1/#', 0));
    await waitFor(() => frames.some((f) => f[0] === 0x90), 5_000, 'SUBACK');
    (ws as unknown as { _socket: { pause(): void } })._socket.pause();

    // 24 MiB of console events in 240 messages: more than the broker's 100 deliveries under way, and more
    // than a console may have unwritten once the sockets' own buffers are full.
    const event = JSON.stringify({ kind: 'runtime', changes: [], pad: 'x'.repeat(100 * 1024) });
    for (let i = 0; i < 240; i++) await bus.publish('/UIOT/S1/runtime', event, { qos: 0 });

    // Everyone else's deliveries go on.
    const received: string[] = [];
    const unsubscribe = await bus.subscribe('dev/S1/+/up', { qos: 1 }, (_topic, payload) => {
      received.push(payload.toString());
    });
    for (let i = 0; i < 5; i++) await bus.publish('dev/S1/L-0001/up', `report-${i}`, { qos: 1 });
    await waitFor(() => received.length === 5, 10_000, 'the reports delivered past the stalled console');
    await waitFor(
      () => lines.some((l) => /console disconnected/.test(l.msg ?? '')),
      10_000,
      'the console disconnected',
    );
    const line = lines.find((l) => /console disconnected/.test(l.msg ?? ''));
    expect(line).toMatchObject({ level: 'warn', obj: { clientId: 'asleep' } });
    await unsubscribe();
    ws.terminate();
  });

  it('restarts the broker after it is killed, and clients connect again', async () => {
    const oldPid = broker.pid!;
    const restarted = new Promise<{ pid: number; restarts: number }>((resolve) => {
      const off = broker.onRestart((info) => {
        off();
        resolve(info);
      });
    });
    process.kill(oldPid, 'SIGKILL');
    const info = await restarted;
    expect(info.pid).not.toBe(oldPid);
    expect(info.restarts).toBe(1);
    expect(broker.pid).toBe(info.pid);
    expect(isAlive(oldPid)).toBe(false);

    // the server's client reconnects by itself, its subscriptions restored
    await waitFor(() => bus.connected, 10_000, 'the bus client to reconnect');
    const client = await browser();
    await client.subscribeAsync('/UIOT/S1/#', { qos: 0 });
    const received = nextMessage(client);
    await bus.publish('/UIOT/S1/runtime/L-0002', 'after restart', { qos: 1 });
    expect(await received).toEqual({ topic: '/UIOT/S1/runtime/L-0002', payload: 'after restart' });
  });

  it('never logs passwords or tokens', () => {
    const text = JSON.stringify(lines);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(broker.internalCredentials.password);
    expect(lines.some((l) => /restarted/.test(l.msg ?? ''))).toBe(true);
  });

  it('stops without leaving a process or a listener behind', async () => {
    const pid = broker.pid!;
    await bus.close();
    await broker.stop();
    expect(isAlive(pid)).toBe(false);
    expect(broker.pid).toBeUndefined();
    // both ports can be listened on again
    const { createServer } = await import('node:net');
    for (const port of [broker.port, broker.wsPort]) {
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      });
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    await broker.stop(); // idempotent
  });
});
