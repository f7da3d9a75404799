/**
 * The native MQTT link against a scripted broker on the loopback interface: what a real broker does not
 * do on demand (withhold PUBACKs, refuse a CONNACK, send garbage, drop the connection at a chosen moment).
 * The fleet tests cover the link against a real broker.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { decodeNativeReport, decodeNativeResult, encodeNativeCommand } from '@uiot/device-protocol';
import { generate, type Packet, parser } from 'mqtt-packet';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceSession } from './device-link.ts';
import type { ReportToSend } from './lock-model.ts';
import { MAX_UNACKNOWLEDGED, NativeMqttLink } from './native-mqtt-link.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Received {
  connection: number;
  packet: Packet & Record<string, unknown>;
}

interface FakeBroker {
  url: string;
  received: Received[];
  sockets: Socket[];
  /** CONNACK return code per connection (by index); 0 when not listed. */
  refuse: number[];
  /** While set, publishes are not acknowledged. */
  withhold: boolean;
  connections: number;
  publishes(connection?: number): Array<Packet & Record<string, unknown>>;
}

async function startFakeBroker(): Promise<FakeBroker> {
  const broker: FakeBroker = {
    url: '',
    received: [],
    sockets: [],
    refuse: [],
    withhold: false,
    connections: 0,
    publishes: (connection) =>
      broker.received
        .filter(
          (r) => r.packet.cmd === 'publish' && (connection === undefined || r.connection === connection),
        )
        .map((r) => r.packet),
  };
  const server: Server = createServer((socket) => {
    const connection = broker.connections;
    broker.connections += 1;
    broker.sockets.push(socket);
    socket.on('error', () => {});
    const reading = parser({ protocolVersion: 4 });
    reading.on('error', () => socket.destroy());
    reading.on('packet', (packet: Packet) => {
      broker.received.push({ connection, packet: packet as Packet & Record<string, unknown> });
      switch (packet.cmd) {
        case 'connect': {
          const returnCode = broker.refuse[connection] ?? 0;
          socket.write(generate({ cmd: 'connack', returnCode, sessionPresent: false }));
          if (returnCode !== 0) socket.end();
          break;
        }
        case 'subscribe':
          socket.write(
            generate({
              cmd: 'suback',
              messageId: packet.messageId as number,
              granted: [packet.subscriptions[0]?.qos ?? 0],
            }),
          );
          break;
        case 'publish':
          if (!broker.withhold)
            socket.write(generate({ cmd: 'puback', messageId: packet.messageId as number }));
          break;
        case 'pingreq':
          socket.write(generate({ cmd: 'pingresp' }));
          break;
        default:
          break;
      }
    });
    socket.on('data', (chunk) => reading.parse(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  broker.url = `mqtt://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of broker.sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return broker;
}

interface Recorded {
  session: DeviceSession;
  events: string[];
  failures: string[];
  commands: string[];
  warnings: string[];
  settled: number;
}

function recordingSession(): Recorded {
  const recorded: Recorded = { events: [], failures: [], commands: [], warnings: [], settled: 0 } as never;
  recorded.session = {
    index: 0,
    device: { stationId: 'S1', code: 'L-0001', secret: 'pw', protocol: 'mqtt' },
    up: () => recorded.events.push('up'),
    down: () => recorded.events.push('down'),
    connectFailed: (error, where) => recorded.failures.push(`${where}: ${error.message}`),
    command: (command) => {
      recorded.commands.push(command.id);
      return {
        messageId: `r-${command.id}`,
        commandId: command.id,
        outcome: 'Success',
        reportedAt: 1_700_000_000_000,
      };
    },
    resultSent: () => recorded.events.push('resultSent'),
    warn: (_detail, message) => recorded.warnings.push(message),
  };
  return recorded;
}

function openLink(url: string, recorded: Recorded): NativeMqttLink {
  const link = new NativeMqttLink(recorded.session, url);
  cleanups.push(() => link.close());
  link.open(() => {
    recorded.settled += 1;
  });
  return link;
}

function report(n: number): ReportToSend {
  return { messageId: `m-${n}`, reportedAt: 1_700_000_000_000 + n, event: 'heartbeat', battery: 80 };
}

function reportId(packet: Record<string, unknown>): string {
  const decoded = decodeNativeReport(packet.payload as Buffer);
  if (!decoded.ok) throw new Error(decoded.detail);
  return decoded.value.messageId;
}

async function waitFor(what: string, condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the native MQTT link', () => {
  it('connects as dev-{code}, subscribes to its down topic and publishes reports on up', async () => {
    const broker = await startFakeBroker();
    const recorded = recordingSession();
    const link = openLink(broker.url, recorded);
    await waitFor('up', () => recorded.events.includes('up'));
    expect(recorded.settled).toBe(1);
    const [connect, subscribe] = broker.received.map((r) => r.packet) as [
      Received['packet'],
      Received['packet'],
    ];
    expect(connect).toMatchObject({
      cmd: 'connect',
      protocolVersion: 4,
      clientId: 'dev-L-0001',
      username: 'L-0001',
      clean: true,
      keepalive: 60,
    });
    expect((connect.password as Buffer).toString()).toBe('pw');
    expect(subscribe).toMatchObject({
      cmd: 'subscribe',
      subscriptions: [{ topic: 'dev/S1/L-0001/down', qos: 1 }],
    });

    const done: Array<Error | null | undefined> = [];
    for (let n = 1; n <= 3; n += 1) link.send(report(n), (error) => done.push(error));
    await waitFor('three acknowledgements', () => done.length === 3);
    expect(done).toEqual([undefined, undefined, undefined]);
    const publishes = broker.publishes();
    expect(publishes.map((p) => [p.topic, p.qos, p.dup, reportId(p)])).toEqual([
      ['dev/S1/L-0001/up', 1, false, 'm-1'],
      ['dev/S1/L-0001/up', 1, false, 'm-2'],
      ['dev/S1/L-0001/up', 1, false, 'm-3'],
    ]);
    // Packet ids are unique, and the SUBSCRIBE's is not reused while it waits.
    const ids = [subscribe.messageId, ...publishes.map((p) => p.messageId)];
    expect(new Set(ids).size).toBe(4);
  });

  it('sends unacknowledged publishes again with DUP after a reconnect, then the ones queued meanwhile', {
    timeout: 10_000,
  }, async () => {
    const broker = await startFakeBroker();
    const recorded = recordingSession();
    const link = openLink(broker.url, recorded);
    await waitFor('up', () => recorded.events.includes('up'));
    const done: string[] = [];
    const callback = (n: number) => (error?: Error | null) =>
      done.push(error ? `${n}: ${error.message}` : `${n}`);

    link.send(report(1), callback(1));
    await waitFor('the first acknowledgement', () => done.length === 1);
    broker.withhold = true;
    for (let n = 2; n <= 4; n += 1) link.send(report(n), callback(n));
    await waitFor('three unacknowledged publishes', () => broker.publishes(0).length === 4);
    broker.sockets[0]?.destroy();
    await waitFor('down', () => recorded.events.includes('down'));
    for (let n = 5; n <= 6; n += 1) link.send(report(n), callback(n));
    broker.withhold = false;

    await waitFor('every acknowledgement', () => done.length === 6, 5000);
    expect(done).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(recorded.events).toEqual(['up', 'down', 'up']);
    // A clean loss after the connection was up is no connection failure.
    expect(recorded.failures).toEqual([]);
    const first = broker.publishes(0);
    const second = broker.publishes(1);
    expect(second.map((p) => [reportId(p), p.dup])).toEqual([
      ['m-2', true],
      ['m-3', true],
      ['m-4', true],
      ['m-5', false],
      ['m-6', false],
    ]);
    // The resent ones keep their packet ids.
    expect(second.slice(0, 3).map((p) => p.messageId)).toEqual(first.slice(1).map((p) => p.messageId));
    // Clean session: the second connection subscribes again.
    expect(broker.received.filter((r) => r.packet.cmd === 'subscribe').map((r) => r.connection)).toEqual([
      0, 1,
    ]);
  });

  it('reports a refused CONNACK and tries again a second later', { timeout: 10_000 }, async () => {
    const broker = await startFakeBroker();
    broker.refuse = [5];
    const recorded = recordingSession();
    openLink(broker.url, recorded);
    await waitFor('the refusal', () => recorded.failures.length === 1);
    expect(recorded.failures[0]).toMatch(
      /^mqtt:\/\/127\.0\.0\.1:\d+\/?: connection refused: not authorized$/,
    );
    expect(recorded.settled).toBe(1);
    const refusedAt = Date.now();
    await waitFor('up on the second attempt', () => recorded.events.includes('up'), 5000);
    expect(Date.now() - refusedAt).toBeGreaterThanOrEqual(900);
    expect(broker.connections).toBe(2);
    expect(recorded.settled).toBe(1);
  });

  it('answers a command on ack, acknowledges every QoS 1 delivery and ignores other topics', async () => {
    const broker = await startFakeBroker();
    const recorded = recordingSession();
    openLink(broker.url, recorded);
    await waitFor('up', () => recorded.events.includes('up'));
    const socket = broker.sockets[0] as Socket;
    const deliver = (topic: string, payload: string, qos: 0 | 1, messageId?: number) =>
      socket.write(
        generate({
          cmd: 'publish',
          topic,
          payload: Buffer.from(payload),
          qos,
          dup: false,
          retain: false,
          ...(messageId === undefined ? {} : { messageId }),
        }),
      );
    deliver('dev/S1/L-0001/down', encodeNativeCommand({ id: 'c-1', cmd: 'open' }), 1, 501);
    deliver('dev/S1/L-0001/down', 'not json', 1, 502);
    deliver('dev/S1/other/down', encodeNativeCommand({ id: 'c-x', cmd: 'open' }), 1, 503);
    deliver('dev/S1/L-0001/down', encodeNativeCommand({ id: 'c-2', cmd: 'close' }), 0);
    await waitFor('two results', () => broker.publishes().length === 2);
    const pubacks = broker.received.filter((r) => r.packet.cmd === 'puback').map((r) => r.packet.messageId);
    expect(pubacks).toEqual([501, 502, 503]);
    expect(recorded.commands).toEqual(['c-1', 'c-2']);
    expect(recorded.warnings).toEqual(['refused a malformed command']);
    const results = broker.publishes().map((p) => {
      const result = decodeNativeResult(p.payload as Buffer);
      return [p.topic, p.qos, result.ok && result.value.commandId];
    });
    expect(results).toEqual([
      ['dev/S1/L-0001/ack', 1, 'c-1'],
      ['dev/S1/L-0001/ack', 1, 'c-2'],
    ]);
    expect(recorded.events.filter((e) => e === 'resultSent')).toHaveLength(2);
  });

  it('drops the connection on a malformed or oversized packet and reconnects', {
    timeout: 10_000,
  }, async () => {
    const broker = await startFakeBroker();
    const recorded = recordingSession();
    openLink(broker.url, recorded);
    await waitFor('up', () => recorded.events.includes('up'));
    // A PUBREC: the lock never publishes at QoS 2.
    broker.sockets[0]?.write(Buffer.from([0x50, 0x02, 0x00, 0x01]));
    await waitFor('the second connection', () => recorded.events.filter((e) => e === 'up').length === 2);
    expect(recorded.failures).toEqual([expect.stringMatching(/unexpected packet type 5 from the broker$/)]);

    // A fixed header announcing 256 KiB + 1, split over two writes: refused before the body arrives.
    const header = Buffer.from([0x30, 0x80, 0x80, 0x10]);
    broker.sockets[1]?.write(header.subarray(0, 2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    broker.sockets[1]?.write(header.subarray(2));
    await waitFor('the third connection', () => recorded.events.filter((e) => e === 'up').length === 3);
    expect(recorded.failures[1]).toMatch(/bad packet from the broker: packet of 262148 bytes over the limit/);
    expect(recorded.events).toEqual(['up', 'down', 'up', 'down', 'up']);
  });

  it('fails every pending send when closed, and sends DISCONNECT', async () => {
    const broker = await startFakeBroker();
    broker.withhold = true;
    const recorded = recordingSession();
    const link = openLink(broker.url, recorded);
    await waitFor('up', () => recorded.events.includes('up'));
    const done: string[] = [];
    for (let n = 1; n <= 2; n += 1) link.send(report(n), (error) => done.push(error?.message ?? 'ok'));
    await waitFor('two publishes', () => broker.publishes().length === 2);
    await link.close();
    expect(done).toEqual(['the simulator stopped', 'the simulator stopped']);
    await waitFor('DISCONNECT', () => broker.received.some((r) => r.packet.cmd === 'disconnect'));
    link.send(report(3), (error) => done.push(error?.message ?? 'ok'));
    expect(done[2]).toBe('the simulator stopped');
  });

  it('keeps sends while it cannot connect, up to the packet ids it has', async () => {
    const recorded = recordingSession();
    // Nothing listens on port 9 of the loopback interface.
    const link = openLink('tcp://127.0.0.1:9', recorded);
    await waitFor('the connection failure', () => recorded.failures.length === 1);
    expect(recorded.settled).toBe(1);
    const errors: string[] = [];
    let pending = 0;
    const done = (error?: Error | null) => {
      pending -= 1;
      if (error) errors.push(error.message);
    };
    for (let n = 0; n <= MAX_UNACKNOWLEDGED; n += 1) {
      pending += 1;
      link.send(report(n), done);
    }
    expect(errors).toEqual([`more than ${MAX_UNACKNOWLEDGED} MQTT publishes unacknowledged`]);
    expect(pending).toBe(MAX_UNACKNOWLEDGED);
    await link.close();
    expect(pending).toBe(0);
    expect(errors).toHaveLength(MAX_UNACKNOWLEDGED + 1);
  });

  it('refuses a URL it cannot speak through connectFailed, without connecting', () => {
    for (const url of ['mqtts://broker.example:8883', 'ws://broker.example/mqtt', 'nonsense']) {
      const recorded = recordingSession();
      openLink(url, recorded);
      expect(recorded.settled).toBe(1);
      expect(recorded.failures).toHaveLength(1);
    }
    const recorded = recordingSession();
    openLink('mqtts://user:secret@broker.example:8883', recorded);
    expect(recorded.failures[0]).toBe(
      'mqtts://user:***@broker.example:8883: a native MQTT lock speaks plain MQTT over TCP (mqtt:// or tcp://), not mqtts://',
    );
  });
});
