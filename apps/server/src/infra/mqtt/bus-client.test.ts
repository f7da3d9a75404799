import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';
import { afterEach, describe, expect, it } from 'vitest';
import { freePorts, recordingLogger, tcpAnswers, waitFor } from '../../lib/test-support.ts';
import { BusBackpressureError, type BusClient, connectBus } from './bus-client.ts';

const EXTERNAL_URL = 'mqtt://127.0.0.1:1883';
const mosquittoUp = await tcpAnswers(1883);
const reason = mosquittoUp ? '' : ' (skipped: nothing answers on 127.0.0.1:1883)';

describe('bus client', () => {
  const buses: BusClient[] = [];
  const { logger } = recordingLogger();

  afterEach(async () => {
    await Promise.all(buses.splice(0).map((b) => b.close()));
  });

  it('gives up with a clear error when no broker answers', async () => {
    const [port] = await freePorts(1);
    await expect(
      connectBus({ url: `mqtt://127.0.0.1:${port}`, clientId: 'nobody-home', logger, connectTimeoutMs: 800 }),
    ).rejects.toThrow(`cannot connect to the MQTT broker at mqtt://127.0.0.1:${port}`);
  });

  it('with ackAfterHandlers, acknowledges a message once all its handlers resolved, never when one failed', async () => {
    const broker = await Aedes.createBroker();
    const server: Server = createServer(broker.handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    // PUBACKs the broker received (aedes names no packet with them: they are counted).
    let acknowledged = 0;
    broker.on('ack', () => {
      acknowledged++;
    });
    try {
      const url = `mqtt://127.0.0.1:${port}`;
      const receiver = await connectBus({
        url,
        clientId: 'held-acks',
        logger,
        maxInFlightHandlers: 10,
        ackAfterHandlers: true,
      });
      buses.push(receiver);
      const sender = await connectBus({ url, clientId: 'sender', logger });
      buses.push(sender);
      const release = new Map<string, () => void>();
      const seen: string[] = [];
      await receiver.subscribe('held/+', { qos: 1 }, async (_topic, payload) => {
        seen.push(`one ${payload}`);
        await new Promise<void>((resolve) => release.set(String(payload), resolve));
      });
      await receiver.subscribe('held/#', { qos: 1 }, async (_topic, payload) => {
        seen.push(`two ${payload}`);
        if (String(payload) === 'refused') throw new Error('not stored');
      });
      // A handler that throws before returning a promise fails its message as well.
      await receiver.subscribe('thrown/+', { qos: 1 }, (_topic, payload) => {
        seen.push(`three ${payload}`);
        throw new Error('not read');
      });
      for (const body of ['kept', 'refused', 'alone']) await sender.publish(`held/${body}`, body, { qos: 1 });
      await sender.publish('held/deep/alone', 'deep', { qos: 1 }); // the second handler's only
      await sender.publish('thrown/x', 'thrown', { qos: 1 });
      const pause = () => new Promise((resolve) => setTimeout(resolve, 150));
      await waitFor(() => seen.length === 8 && acknowledged === 1, 5_000, 'all handlers started');
      // Read on while the first handler holds three messages: only the fourth is acknowledged, not the thrown.
      await pause();
      expect(acknowledged).toBe(1);
      release.get('kept')!();
      release.get('refused')!();
      await waitFor(() => acknowledged === 2, 5_000, 'the PUBACK of the message stored');
      await pause();
      expect(acknowledged).toBe(2); // none for the message one handler refused
      release.get('alone')!();
      await waitFor(() => acknowledged === 3, 5_000, 'the last PUBACK');
      await pause();
      expect(acknowledged).toBe(3);
    } finally {
      await Promise.all(buses.splice(0).map((b) => b.close()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    }
  });

  describe.skipIf(!mosquittoUp)(`against the external broker at ${EXTERNAL_URL}${reason}`, () => {
    const prefix = `uiot-test/${randomBytes(6).toString('hex')}`;

    async function bus(name: string, options: { maxInFlightHandlers?: number } = {}): Promise<BusClient> {
      const client = await connectBus({
        url: EXTERNAL_URL,
        clientId: `${name}-${randomBytes(4).toString('hex')}`,
        logger,
        ...options,
      });
      buses.push(client);
      return client;
    }

    it('publishes and receives with wildcards, handing the topic and a Buffer', async () => {
      const a = await bus('a');
      const b = await bus('b');
      const got: Array<[string, Buffer]> = [];
      await a.subscribe(`${prefix}/dev/+/+/up`, { qos: 1 }, (topic, payload) => {
        got.push([topic, payload]);
      });
      await b.publish(`${prefix}/dev/S1/L1/up`, '{"n":1}', { qos: 1 });
      await b.publish(`${prefix}/dev/S1/L1/ack`, 'not matched', { qos: 1 });
      await b.publish(`${prefix}/dev/S1/L2/up`, Buffer.from([1, 2, 3]), { qos: 0 });
      await waitFor(() => got.length === 2, 5_000, 'two messages');
      expect(got[0]![0]).toBe(`${prefix}/dev/S1/L1/up`);
      expect(Buffer.isBuffer(got[0]![1])).toBe(true);
      expect(got[0]![1].toString()).toBe('{"n":1}');
      expect([...got[1]![1]]).toEqual([1, 2, 3]);
      expect(a.connected).toBe(true);
    });

    it('shares a $share/group subscription between instances: each message goes to one of them', async () => {
      const one = await bus('one');
      const two = await bus('two');
      const sender = await bus('sender');
      const byOne: string[] = [];
      const byTwo: string[] = [];
      const filter = `$share/uiot/${prefix}/shared/#`;
      await one.subscribe(filter, { qos: 1 }, (topic) => {
        byOne.push(topic);
      });
      await two.subscribe(filter, { qos: 1 }, (topic) => {
        byTwo.push(topic);
      });
      const count = 20;
      for (let i = 0; i < count; i++) await sender.publish(`${prefix}/shared/m${i}`, String(i), { qos: 1 });
      await waitFor(() => byOne.length + byTwo.length === count, 5_000, 'all shared messages');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(byOne.length + byTwo.length).toBe(count);
      expect(new Set([...byOne, ...byTwo]).size).toBe(count);
      expect(byOne.length).toBeGreaterThan(0);
      expect(byTwo.length).toBeGreaterThan(0);
    });

    it('acknowledges a message only after its handler settled (maxInFlightHandlers = 1)', async () => {
      const a = await bus('slow');
      const b = await bus('fast');
      const events: string[] = [];
      await a.subscribe(`${prefix}/slow/+`, { qos: 1 }, async (topic) => {
        events.push(`start ${topic.slice(-2)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
        events.push(`end ${topic.slice(-2)}`);
      });
      await b.publish(`${prefix}/slow/m1`, '1', { qos: 1 });
      await b.publish(`${prefix}/slow/m2`, '2', { qos: 1 });
      await waitFor(() => events.length === 4, 5_000, 'both handlers');
      expect(events).toEqual(['start m1', 'end m1', 'start m2', 'end m2']);
    });

    it('keeps handlers apart, and unsubscribes when the last one leaves', async () => {
      const a = await bus('multi');
      const b = await bus('pub');
      const first: string[] = [];
      const second: string[] = [];
      const offFirst = await a.subscribe(`${prefix}/multi/#`, { qos: 0 }, (t) => {
        first.push(t);
      });
      const offSecond = await a.subscribe(`${prefix}/multi/#`, { qos: 0 }, (t) => {
        second.push(t);
      });
      await b.publish(`${prefix}/multi/1`, 'x', { qos: 1 });
      await waitFor(() => first.length === 1 && second.length === 1, 5_000, 'both handlers');
      await offFirst();
      await b.publish(`${prefix}/multi/2`, 'x', { qos: 1 });
      await waitFor(() => second.length === 2, 5_000, 'the remaining handler');
      expect(first).toHaveLength(1);
      await offSecond();
    });

    it('writes a burst larger than the socket takes at once without warning of a listener leak', async () => {
      const a = await bus('burst');
      const warnings: string[] = [];
      const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
      process.on('warning', onWarning);
      try {
        // Each packet written while the socket's buffer is full waits for its 'drain'.
        const payload = Buffer.alloc(64 * 1024, 1);
        await Promise.all(
          Array.from({ length: 1_200 }, (_, i) => a.publish(`${prefix}/burst/${i}`, payload, { qos: 0 })),
        );
        await new Promise((resolve) => setImmediate(resolve));
      } finally {
        process.off('warning', onWarning);
      }
      expect(warnings.filter((w) => w.includes('MaxListenersExceeded'))).toEqual([]);
    });

    it('bounds QoS 1 publishes awaiting acknowledgement', async () => {
      const client = await connectBus({
        url: EXTERNAL_URL,
        clientId: `bounded-${randomBytes(4).toString('hex')}`,
        logger,
        maxPendingPublishes: 2,
      });
      buses.push(client);
      const results = await Promise.allSettled(
        [1, 2, 3].map((i) => client.publish(`${prefix}/bounded/${i}`, 'x', { qos: 1 })),
      );
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
      expect((results[2] as PromiseRejectedResult).reason).toBeInstanceOf(BusBackpressureError);
    });

    it('is disconnected after close, and refuses to publish', async () => {
      const a = await bus('closing');
      const changes: boolean[] = [];
      a.onConnectionChange((connected) => changes.push(connected));
      await a.close();
      expect(a.connected).toBe(false);
      expect(changes).toEqual([false]);
      await expect(a.publish(`${prefix}/x`, 'y')).rejects.toThrow(/closed/);
    });
  });
});
