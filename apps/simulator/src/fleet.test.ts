/**
 * The fleet against a real broker (aedes, in-process) and a tiny TcpDirect server: the only tests here
 * that open sockets, all on the loopback interface.
 */
import { createServer, type Server, type Socket } from 'node:net';
import {
  chirpstackDownTopic,
  decodeChirpstackEvent,
  decodeNativeReport,
  decodeNativeResult,
  decodeTcpDeviceMessage,
  derivePin,
  encodeChirpstackDown,
  encodeLockCommand,
  encodeNativeCommand,
  encodeTcpAuthResult,
  encodeTcpCommand,
  encodeTcpReceived,
  FrameDecoder,
  localHour,
  pinRef,
  type TcpDeviceMessage,
} from '@uiot/device-protocol';
import { Aedes, type AedesOptions } from 'aedes';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { startFleet } from './fleet.ts';
import { generateDevices } from './fleet-file.ts';
import { type Fleet, LOAD_FAULT_BATTERY, type SimulatedDevice } from './fleet-options.ts';
import { expectedIdList } from './load-scheduler.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  });
}

async function startBroker(options?: AedesOptions): Promise<string> {
  const broker = await Aedes.createBroker(options);
  const server = createServer(broker.handle);
  const port = await listen(server);
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.close();
        broker.close(() => resolve());
      }),
  );
  return `mqtt://127.0.0.1:${port}`;
}

async function subscriber(
  url: string,
  filters: string[],
): Promise<{ client: MqttClient; received: Array<[string, Buffer]> }> {
  const client = await connectAsync(url, {
    protocolVersion: 4,
    clientId: `observer-${Math.random()}`,
    reconnectPeriod: 0,
  });
  cleanups.push(() => client.endAsync(true));
  const received: Array<[string, Buffer]> = [];
  client.on('message', (topic, payload) => received.push([topic, payload]));
  await client.subscribeAsync(filters, { qos: 1 });
  return { client, received };
}

function track(fleet: Fleet): Fleet {
  cleanups.push(() => fleet.stop({ drainMs: 0 }));
  return fleet;
}

async function waitFor(what: string, condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a native MQTT fleet', () => {
  it('delivers every load report exactly once, with its send time', { timeout: 20_000 }, async () => {
    const url = await startBroker();
    const { received } = await subscriber(url, ['dev/+/+/up']);
    const fleet = track(
      startFleet({
        devices: generateDevices(5, { protocol: 'mqtt', stationId: 'S1', prefix: 'SIM-' }),
        mqttUrl: url,
        mode: { kind: 'load', rate: 200 },
      }),
    );
    await fleet.ready;
    expect(fleet.stats.connected).toBe(5);
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await fleet.stop();
    const stopped = Date.now();

    const expected = fleet.expectedIds();
    await waitFor('every report at the subscriber', () => received.length >= expected.total);
    const { stats } = fleet;
    // ~1 s at 200/s, give or take the timers of a busy test machine.
    expect(stats.offered).toBeGreaterThanOrEqual(150);
    expect(stats.offered).toBeLessThanOrEqual(400);
    expect(stats.published).toBe(stats.offered);
    expect(stats.acknowledged).toBe(stats.published);
    expect(stats.failed).toBe(0);
    expect(expected.total).toBe(stats.published);
    expect(Math.max(...expected.perDevice) - Math.min(...expected.perDevice)).toBeLessThanOrEqual(1);

    const seen = new Map<string, number>();
    for (const [topic, payload] of received) {
      const report = decodeNativeReport(payload);
      if (!report.ok) throw new Error(`undecodable report on ${topic}: ${report.detail}`);
      expect(report.value.event).toBe('heartbeat');
      expect(report.value.reportedAt).toBeGreaterThanOrEqual(started - 50);
      expect(report.value.reportedAt).toBeLessThanOrEqual(stopped);
      const device = Number(report.value.messageId.split('-')[1]);
      expect(topic).toBe(`dev/S1/SIM-0000${device + 1}/up`);
      seen.set(report.value.messageId, (seen.get(report.value.messageId) ?? 0) + 1);
    }
    const ids = [...expectedIdList(expected)];
    expect(ids.every((id) => id.startsWith(`${fleet.runPrefix}-`))).toBe(true);
    expect([...seen.keys()].sort()).toEqual([...ids].sort());
    expect([...seen.values()].every((count) => count === 1)).toBe(true);
  });

  it('plays a low battery on every faultEvery-th load report of a device, staggered over the devices', async () => {
    const url = await startBroker();
    const { received } = await subscriber(url, ['dev/+/+/up']);
    const fleet = track(
      startFleet({
        devices: generateDevices(4, { protocol: 'mqtt', stationId: 'S1', prefix: 'SIM-' }),
        mqttUrl: url,
        mode: { kind: 'load', rate: 200, faultEvery: 4 },
      }),
    );
    await fleet.ready;
    await new Promise((resolve) => setTimeout(resolve, 600));
    await fleet.stop();
    await waitFor('every report at the subscriber', () => received.length >= fleet.expectedIds().total);
    const faults = new Map<number, number>();
    for (const [, payload] of received) {
      const report = decodeNativeReport(payload);
      if (!report.ok || report.value.kind !== 'report') throw new Error('undecodable report');
      const [, device, n] = report.value.messageId.split('-').map(Number);
      const fault = (n! + device!) % 4 === 0;
      expect(report.value.battery === LOAD_FAULT_BATTERY).toBe(fault);
      if (fault) faults.set(n!, (faults.get(n!) ?? 0) + 1);
    }
    expect(faults.size).toBeGreaterThan(0);
    // Staggered: the devices do not all play their fault with the same report.
    expect(Math.max(...faults.values())).toBe(1);
  });

  it('connects as dev-{code} with the code and secret, and answers a command on ack', {
    timeout: 15_000,
  }, async () => {
    const logins: Array<{ clientId: string; username?: string; password?: string }> = [];
    const url = await startBroker({
      authenticate: (client, username, password, done) => {
        if (client.id.startsWith('observer-')) return done(null, true);
        logins.push({ clientId: client.id, username, password: password?.toString() });
        done(null, password?.toString() === 'lock-secret');
      },
    });
    const { client, received } = await subscriber(url, ['dev/+/+/ack', 'dev/+/+/up']);
    const fleet = track(
      startFleet({
        devices: [{ stationId: 'S9', code: 'L-0001', secret: 'lock-secret', protocol: 'mqtt' }],
        mqttUrl: url,
        mode: { kind: 'behaviour', behaviour: { jamProbability: 0 } },
      }),
    );
    await fleet.ready;
    expect(logins).toContainEqual({ clientId: 'dev-L-0001', username: 'L-0001', password: 'lock-secret' });
    await waitFor('the boot report', () => received.some(([topic]) => topic === 'dev/S9/L-0001/up'));

    await client.publishAsync('dev/S9/L-0001/down', encodeNativeCommand({ id: 'cmd-42', cmd: 'open' }), {
      qos: 1,
    });
    await waitFor('the command result', () => received.some(([topic]) => topic === 'dev/S9/L-0001/ack'));
    const ack = received.find(([topic]) => topic === 'dev/S9/L-0001/ack') as [string, Buffer];
    const result = decodeNativeResult(ack[1]);
    expect(result.ok && result.value).toMatchObject({ commandId: 'cmd-42', outcome: 'Success' });
    expect(fleet.stats).toMatchObject({ commandsReceived: 1, resultsSent: 1 });
    // The state change follows as a report.
    await waitFor('the lockChanged report', () =>
      received.some(([, payload]) => {
        const report = decodeNativeReport(payload);
        return report.ok && report.value.event === 'lockChanged' && report.value.lock === 'open';
      }),
    );
  });

  it('opens a lock for a PIN entered on it and reports the use through its link', {
    timeout: 15_000,
  }, async () => {
    const url = await startBroker();
    const { received } = await subscriber(url, ['dev/+/+/up']);
    const pinSecret = '3132333435363738393031323334353637383930';
    const fleet = track(
      startFleet({
        devices: [
          { stationId: 'S9', code: 'L-0001', protocol: 'mqtt', pinSecret },
          { stationId: 'S9', code: 'L-0002', protocol: 'mqtt' },
        ],
        mqttUrl: url,
        mode: { kind: 'behaviour', heartbeatSeconds: 3600 },
      }),
    );
    await fleet.ready;
    const spec = { type: 'once', slot: 3, startHour: localHour(Date.now(), 480) } as const;
    const code = derivePin(Buffer.from(pinSecret, 'hex'), spec);

    // The lock without a secret refuses the code the other one accepts.
    expect(fleet.enterPin('L-0002', code)).toEqual({ outcome: 'refused', reason: 'wrong' });
    expect(fleet.enterPin('L-0001', code)).toEqual({ outcome: 'opened', pinRef: pinRef(spec) });
    expect(fleet.enterPin('L-0001', code)).toEqual({ outcome: 'refused', reason: 'used' });
    expect(() => fleet.enterPin('L-0404', code)).toThrow(RangeError);

    const pinReports = () =>
      received.flatMap(([topic, payload]) => {
        const report = decodeNativeReport(payload);
        if (!report.ok || report.value.kind !== 'report') throw new Error(`undecodable report on ${topic}`);
        return report.value.event?.startsWith('pin') ? [[topic, report.value] as const] : [];
      });
    await waitFor('the pinUsed report', () => pinReports().length > 0);
    const [[topic, report] = ['', {}]] = pinReports();
    expect(pinReports()).toHaveLength(1);
    expect(topic).toBe('dev/S9/L-0001/up');
    expect(report).toMatchObject({ event: 'pinUsed', lock: 'open', props: { pinRef: pinRef(spec) } });
    expect(received.some(([, payload]) => payload.toString().includes(code))).toBe(false);
  });

  it('rejects ready naming the device whose credentials were refused', { timeout: 15_000 }, async () => {
    const url = await startBroker({
      authenticate: (_client, _username, password, done) => done(null, password?.toString() === 'right'),
    });
    const fleet = track(
      startFleet({
        devices: [
          { stationId: 'S1', code: 'L-1', secret: 'right', protocol: 'mqtt' },
          { stationId: 'S1', code: 'L-2', secret: 'wrong', protocol: 'mqtt' },
        ],
        mqttUrl: url,
        mode: { kind: 'behaviour' },
      }),
    );
    await expect(fleet.ready).rejects.toThrow(
      /^device L-2 \(mqtt\) could not connect to mqtt:\/\/127\.0\.0\.1:\d+\/?: connection refused/,
    );
    await expect(fleet.ready).rejects.not.toThrow(/wrong/);
  });
});

describe('a ChirpStack fleet', () => {
  it('publishes uplinks as ChirpStack and answers a downlink with txack, ack and the result', {
    timeout: 15_000,
  }, async () => {
    const url = await startBroker();
    const { client, received } = await subscriber(url, ['application/+/device/+/event/+']);
    const devices = generateDevices(2, { protocol: 'chirpstack', stationId: 'S1', prefix: 'LR-' });
    const fleet = track(
      startFleet({
        devices,
        mqttUrl: url,
        chirpstack: { username: 'chirpstack', password: 'pw', applicationId: 'app-1' },
        mode: { kind: 'behaviour', behaviour: { jamProbability: 0 } },
      }),
    );
    await fleet.ready;
    expect(fleet.stats.connected).toBe(2);
    const decode = ([topic, payload]: [string, Buffer]) => {
      const event = topic.split('/')[5] as string;
      const message = decodeChirpstackEvent(event, payload);
      if (!message.ok) throw new Error(`undecodable ${event}: ${message.detail}`);
      return { event, value: message.value };
    };
    const isBoot = (d: ReturnType<typeof decode>): boolean =>
      d.event === 'up' && d.value?.message.kind === 'report' && d.value.message.event === 'boot';
    // A lock that boots with a low battery follows its boot report with a lowBattery one.
    await waitFor('two boot uplinks', () => received.map(decode).filter(isBoot).length === 2);
    const boots = received.map(decode).filter(isBoot);
    expect(boots.map((b) => b.value?.devEui).sort()).toEqual(devices.map((d) => d.devEui).sort());

    const devEui = devices[0]?.devEui as string;
    const before = received.length;
    await client.publishAsync(
      chirpstackDownTopic('app-1', devEui),
      encodeChirpstackDown({
        devEui,
        confirmed: true,
        fPort: 10,
        data: encodeLockCommand({ seq: 77, cmd: 'open' }),
        id: 'queue-item-1',
      }),
      { qos: 1 },
    );
    await waitFor('txack, ack and result', () =>
      received
        .slice(before)
        .some(
          ([topic, payload]) =>
            topic.endsWith('/event/up') && decode([topic, payload]).value?.message.kind === 'commandResult',
        ),
    );
    const answers = received
      .slice(before)
      .map(decode)
      .filter((d) => d.value?.message.kind === 'commandResult')
      .map((d) => [
        d.event,
        d.value?.message.kind === 'commandResult' && d.value.message.commandId,
        d.value?.message.kind === 'commandResult' && d.value.message.outcome,
      ]);
    expect(answers).toEqual([
      ['txack', 'queue-item-1', 'Sent'],
      ['ack', 'queue-item-1', 'Delivered'],
      ['up', 'seq:77', 'Success'],
    ]);
    expect(fleet.stats).toMatchObject({ commandsReceived: 1, resultsSent: 1 });
  });

  it('carries the reference of a PIN used on a LoRaWAN lock in its uplink', { timeout: 15_000 }, async () => {
    const url = await startBroker();
    const { received } = await subscriber(url, ['application/+/device/+/event/up']);
    const pinSecret = '3132333435363738393031323334353637383930';
    const [device] = generateDevices(1, { protocol: 'chirpstack', stationId: 'S1', prefix: 'LR-' });
    const fleet = track(
      startFleet({
        devices: [{ ...(device as SimulatedDevice), pinSecret }],
        mqttUrl: url,
        chirpstack: { username: 'chirpstack', password: 'pw', applicationId: 'app-1' },
        mode: { kind: 'behaviour', heartbeatSeconds: 3600 },
      }),
    );
    await fleet.ready;
    const spec = { type: 'timePeriod', slot: 0, startHour: localHour(Date.now(), 480) } as const;
    expect(fleet.enterPin('LR-00001', derivePin(Buffer.from(pinSecret, 'hex'), spec))).toMatchObject({
      outcome: 'opened',
    });
    const pinUsed = () =>
      received
        .map(([, payload]) => decodeChirpstackEvent('up', payload))
        .map((event) => (event.ok && event.value?.message.kind === 'report' ? event.value.message : null))
        .find((report) => report?.event === 'pinUsed');
    await waitFor('the pinUsed uplink', () => pinUsed() !== undefined);
    expect(pinUsed()).toMatchObject({ lock: 'open', props: { pinRef: pinRef(spec) } });
  });
});

interface TcpServer {
  port: number;
  auths: Array<Extract<TcpDeviceMessage, { type: 'auth' }>>;
  messages: TcpDeviceMessage[];
  sockets: Socket[];
  /** While set, reports and results are not confirmed. */
  withhold: boolean;
}

function messageId(message: TcpDeviceMessage): string {
  if (message.type === 'report') return message.report.messageId;
  if (message.type === 'result') return message.result.messageId;
  return '';
}

async function startTcpServer(accept: boolean): Promise<TcpServer> {
  const state: TcpServer = { port: 0, auths: [], messages: [], sockets: [], withhold: false };
  const server = createServer((socket) => {
    state.sockets.push(socket);
    const decoder = new FrameDecoder();
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      for (const frame of decoder.push(chunk)) {
        if (!frame.ok) throw new Error(frame.detail);
        const message = decodeTcpDeviceMessage(frame.value);
        if (!message.ok) throw new Error(message.detail);
        if (message.value.type === 'auth') {
          state.auths.push(message.value);
          socket.write(encodeTcpAuthResult(accept));
          if (!accept) socket.end();
        } else {
          state.messages.push(message.value);
          if (!state.withhold) socket.write(encodeTcpReceived(messageId(message.value)));
        }
      }
    });
  });
  state.port = await listen(server);
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of state.sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return state;
}

describe('a TcpDirect fleet', () => {
  it('authenticates, reports, answers a command and reconnects', { timeout: 15_000 }, async () => {
    const server = await startTcpServer(true);
    const fleet = track(
      startFleet({
        devices: [{ stationId: 'S3', code: 'T-1', secret: 'tcp-secret', protocol: 'tcp' }],
        tcp: { host: '127.0.0.1', port: server.port },
        mode: { kind: 'behaviour', heartbeatSeconds: 1, behaviour: { jamProbability: 0 } },
      }),
    );
    await fleet.ready;
    expect(server.auths).toEqual([{ type: 'auth', stationId: 'S3', code: 'T-1', secret: 'tcp-secret' }]);
    await waitFor('boot and a heartbeat', () =>
      ['boot', 'heartbeat'].every((event) =>
        server.messages.some((m) => m.type === 'report' && m.report.event === event),
      ),
    );

    server.sockets[0]?.write(encodeTcpCommand({ id: 'cmd-tcp', cmd: 'close' }));
    await waitFor('the result', () => server.messages.some((m) => m.type === 'result'));
    const result = server.messages.find((m) => m.type === 'result');
    expect(result?.type === 'result' && result.result).toMatchObject({
      commandId: 'cmd-tcp',
      outcome: 'Success',
    });

    await waitFor('every report confirmed', () => fleet.stats.acknowledged === fleet.stats.published);

    // Reports the server has not confirmed when the connection drops are sent again after the reconnect.
    server.withhold = true;
    const seenBefore = server.messages.length;
    await waitFor('an unconfirmed report', () => server.messages.length > seenBefore, 4000);
    const withheld = server.messages.slice(seenBefore).map(messageId);
    expect(fleet.stats.acknowledged).toBeLessThan(fleet.stats.published);
    server.sockets[0]?.destroy();
    server.withhold = false;
    await waitFor('a second authentication', () => server.auths.length === 2, 4000);
    await waitFor('connected again', () => fleet.stats.connected === 1);
    await waitFor('the withheld reports again', () =>
      withheld.every((id) => server.messages.filter((m) => messageId(m) === id).length === 2),
    );
    await waitFor('every report confirmed again', () => fleet.stats.acknowledged === fleet.stats.published);
    expect(fleet.stats.failed).toBe(0);
  });

  it('rejects ready when the server refuses the credentials', { timeout: 15_000 }, async () => {
    const server = await startTcpServer(false);
    const fleet = track(
      startFleet({
        devices: [{ stationId: 'S3', code: 'T-9', secret: 'nope', protocol: 'tcp' }],
        tcp: { host: '127.0.0.1', port: server.port },
        mode: { kind: 'behaviour' },
      }),
    );
    await expect(fleet.ready).rejects.toThrow(
      `device T-9 (tcp) could not connect to tcp://127.0.0.1:${server.port}: the server refused its credentials`,
    );
  });
});
