import { randomUUID } from 'node:crypto';
import { connect as connectTcp, type Socket } from 'node:net';
import type { DeviceCredential, Endpoint, EndpointBody, EndpointResult, Envelope } from '@uiot/contracts';
import {
  chirpstackEventTopic,
  decodeNativeCommand,
  decodeTcpServerMessage,
  encodeChirpstackUp,
  encodeLockReport,
  encodeNativeResult,
  FrameDecoder,
  LOCK_FPORT,
  type LockReport,
  type TcpServerMessage,
} from '@uiot/device-protocol';
import { type Fleet, startFleet } from '@uiot/simulator';
import { connectAsync, type MqttClient } from 'mqtt';
import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import type { Config } from '../../src/config.ts';
import { type RunningSystem, startSystem } from '../../src/system.ts';
import { createTestApp, type TestApp, urlOf } from './app.ts';
import type { TestDatabase } from './databases.ts';
import { insertDeviceTypeRow, insertUnitRow } from './devices.ts';
import { tempDir } from './server-process.ts';

export const CHIRPSTACK_PASSWORD = 'chirpstack-test-password';
export const NB_SECRETS = {
  ChinaTelecom: 'telecom-callback-secret-1',
  ChinaUnicom: 'unicom-callback-secret-22',
  ChinaMobile: 'mobile-callback-secret-333',
};
export const TEST_ADMIN_PASSWORD = 'Admin-Bus-2026';

/** The whole server on a test database, every listener on a free port (embedded broker unless `mqttUrl`). */
export async function startBusSystem(
  database: TestDatabase,
  overrides: Partial<Config> = {},
): Promise<RunningSystem & { removeDir(): void }> {
  const dir = tempDir('uiot-bus-');
  const config: Config = {
    port: 0,
    host: '127.0.0.1',
    dataDir: dir.dir,
    databaseUrl: undefined,
    mqttUrl: undefined,
    mqttPort: 0,
    mqttWsPort: 0,
    smtpUrl: undefined,
    noticeWebhooks: {},
    fileStore: undefined,
    adminPassword: TEST_ADMIN_PASSWORD,
    demo: false,
    logLevel: 'silent',
    logFormat: 'json',
    corsOrigins: [],
    sessionIdleSeconds: 3600,
    sessionMaxSeconds: 7200,
    webDistDir: '/nonexistent',
    tcpDirectPort: 0,
    chirpstackMqttPassword: CHIRPSTACK_PASSWORD,
    nbCallbackSecrets: NB_SECRETS,
    mqttDeviceAuth: 'dynsec',
    mqttSharedSubscription: true,
    historyRetentionDays: 180,
    ingestRepeatSeconds: undefined,
    commandRetransmitSeconds: 30,
    trustedProxies: [],
    apiDocs: false,
    tls: undefined,
    ...overrides,
  };
  const system = await startSystem(
    config,
    pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    () => {},
    {
      database,
    },
  );
  return { ...system, removeDir: () => dir.remove() };
}

/** A unit and a device type to hang test devices under. */
export async function busFixtures(database: TestDatabase): Promise<{ unitId: string; typeId: string }> {
  return { unitId: await insertUnitRow(database.db), typeId: await insertDeviceTypeRow(database.db) };
}

/**
 * A simulated native MQTT lock of the station, connected to `mqttUrl` and obeying commands; it reports only
 * what commands change (an hour's heartbeat, never offline). Added to `fleets` for the suite to stop.
 */
export async function simulatedLock(
  mqttUrl: string,
  lock: { stationId: string; code: string; secret: string | null; pinSecret?: string | null | undefined },
  fleets: Fleet[],
  seed = 7,
): Promise<Fleet> {
  if (!lock.secret) throw new Error(`lock ${lock.code} has no secret: register it first`);
  const fleet = startFleet({
    devices: [
      {
        stationId: lock.stationId,
        code: lock.code,
        secret: lock.secret,
        protocol: 'mqtt',
        ...(lock.pinSecret ? { pinSecret: lock.pinSecret } : {}),
      },
    ],
    mqttUrl,
    mode: { kind: 'behaviour', heartbeatSeconds: 3600, behaviour: { offlineMeanSeconds: 1e9 } },
    seed,
  });
  fleets.push(fleet);
  await fleet.ready;
  return fleet;
}

/** Connects an MQTT 3.1.1 client; rejects with the broker's refusal. */
export function mqttClient(
  url: string,
  username: string,
  password: string,
  clientId: string,
): Promise<MqttClient> {
  return connectAsync(url, {
    protocolVersion: 4,
    clientId,
    username,
    password,
    reconnectPeriod: 0,
    connectTimeout: 5_000,
  });
}

/** Calls an endpoint of a running system over HTTP, as the console does. */
export async function callApi<E extends Endpoint>(
  baseUrl: string,
  endpoint: E,
  token: string | null,
  body?: EndpointBody<E>,
  query?: Record<string, string>,
): Promise<Envelope<EndpointResult<E>>> {
  const search = query ? `?${new URLSearchParams(query)}` : '';
  const response = await fetch(`${baseUrl}${urlOf(endpoint)}${search}`, {
    method: endpoint.method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Envelope<EndpointResult<E>>;
}

/** A native lock on the device bus (MQTT over TCP) that answers every command it receives with Success. */
export async function answeringLock(
  mqttUrl: string,
  stationId: string,
  lock: { code: string; credential: Pick<DeviceCredential, 'secret'> },
): Promise<MqttClient> {
  const client = await mqttClient(mqttUrl, lock.code, lock.credential.secret, `lock-${randomUUID()}`);
  client.on('message', (_topic, payload) => {
    const command = decodeNativeCommand(payload);
    if (!command.ok) return;
    void client.publishAsync(
      `dev/${stationId}/${lock.code}/ack`,
      encodeNativeResult({ messageId: `r-${randomUUID()}`, commandId: command.value.id, outcome: 'Success' }),
      { qos: 1 },
    );
  });
  await client.subscribeAsync(`dev/${stationId}/${lock.code}/down`, { qos: 1 });
  return client;
}

/** A TcpDirect test device: sends frames, collects the server's messages. */
export interface TcpTestDevice {
  socket: Socket;
  received: TcpServerMessage[];
  closed: Promise<void>;
  send(frame: Buffer): void;
  end(): void;
}

export function tcpDevice(port: number): Promise<TcpTestDevice> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp({ port, host: '127.0.0.1' });
    const decoder = new FrameDecoder();
    const received: TcpServerMessage[] = [];
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('data', (chunk: Buffer) => {
      for (const frame of decoder.push(chunk)) {
        if (!frame.ok) continue;
        const message = decodeTcpServerMessage(frame.value);
        if (message.ok) received.push(message.value);
      }
    });
    socket.once('error', reject);
    socket.once('connect', () =>
      resolve({
        socket,
        received,
        closed,
        send: (frame) => socket.write(frame),
        end: () => socket.destroy(),
      }),
    );
  });
}

/**
 * Publishes, as the ChirpStack integration, a LoRaWAN uplink carrying the lock's binary report; resolves
 * once the broker acknowledged it.
 */
export async function publishLockUplink(
  chirpstack: MqttClient,
  uplink: {
    applicationId: string;
    devEui: string;
    fCnt: number;
    rssi: number;
    report: LockReport;
    seq?: number;
  },
): Promise<void> {
  await chirpstack.publishAsync(
    chirpstackEventTopic(uplink.applicationId, uplink.devEui, 'up'),
    encodeChirpstackUp({
      applicationId: uplink.applicationId,
      devEui: uplink.devEui,
      deduplicationId: randomUUID(),
      time: new Date(),
      fCnt: uplink.fCnt,
      fPort: LOCK_FPORT,
      data: encodeLockReport(uplink.report, uplink.seq),
      rssi: uplink.rssi,
    }),
    { qos: 1 },
  );
}

/** What a suite on the whole server holds: the database, the running system, a test app, its fixtures. */
export interface BusSuite {
  database: TestDatabase;
  system: RunningSystem & { removeDir(): void };
  /** Creates staff and signs them in. */
  t: TestApp;
  fixtures: { unitId: string; typeId: string };
  /** Simulated fleets and MQTT clients the tests start: stopped after the suite. */
  fleets: Fleet[];
  clients: MqttClient[];
}

/**
 * Starts the whole server on a test database before the suite's tests (with a unit and a device type for
 * locks) and stops everything after them, the fleets and clients the tests started included. Its fields are
 * set once the suite's `beforeAll` has run.
 */
export function busSuite(open: () => Promise<TestDatabase>, overrides: Partial<Config> = {}): BusSuite {
  const suite = { fleets: [], clients: [] } as unknown as BusSuite;
  beforeAll(async () => {
    suite.database = await open();
    suite.fixtures = await busFixtures(suite.database);
    suite.system = await startBusSystem(suite.database, overrides);
    suite.t = await createTestApp(suite.database);
  });
  afterAll(async () => {
    await Promise.all(suite.clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await Promise.all(suite.fleets.map((fleet) => fleet.stop({ drainMs: 0 }).catch(() => undefined)));
    await suite.t?.closeApp();
    await suite.system?.stop();
    suite.system?.removeDir();
    await suite.database?.close();
  });
  return suite;
}
