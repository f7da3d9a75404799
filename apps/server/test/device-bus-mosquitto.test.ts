import { randomBytes, randomUUID } from 'node:crypto';
import type { DeviceCredential, RuntimeRow } from '@uiot/contracts';
import { encodeNativeReport } from '@uiot/device-protocol';
import { eq, sql } from 'drizzle-orm';
import { connect, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STATION } from '../src/lib/station.ts';
import { waitFor } from '../src/lib/test-support.ts';
import { SERVER_OPERATOR } from '../src/modules/devices/device-operation.ts';
import { deviceHistory } from '../src/modules/iot/iot.schema.ts';
import type { RunningSystem } from '../src/system.ts';
import { databases, type TestDatabase } from './support/databases.ts';
import {
  busFixtures,
  CHIRPSTACK_PASSWORD,
  mqttClient,
  publishLockUplink,
  startBusSystem,
} from './support/device-bus.ts';
import { insertDeviceRow } from './support/devices.ts';
import { type MosquittoInstance, mosquittoInstalled, startMosquitto } from './support/mosquitto.ts';

const STATION = DEFAULT_STATION.id;
const installed = mosquittoInstalled({ dynsec: true });

/** An own Mosquitto with dynamic security (persistent), and the server on it with its admin account. */
async function systemOnMosquitto(
  database: TestDatabase,
  options: { shared: boolean },
): Promise<{ mosquitto: MosquittoInstance; system: RunningSystem & { removeDir(): void } }> {
  const mosquitto = await startMosquitto({ dynsec: true, persistence: true });
  const admin = mosquitto.admin!;
  const system = await startBusSystem(database, {
    mqttUrl: `mqtt://${admin.username}:${encodeURIComponent(admin.password)}@127.0.0.1:${mosquitto.port}`,
    mqttDeviceAuth: 'dynsec',
    mqttSharedSubscription: options.shared,
  });
  return { mosquitto, system };
}

/**
 * The scale-out profile's device bus: the server against a Mosquitto of its own (the machine's shared one on
 * 1883 allows anonymous clients and must not be restarted), administering device accounts through the
 * dynamic security plugin.
 */
describe.skipIf(!installed).each(databases)('device bus on Mosquitto ($kind)', ({ open }) => {
  let database: TestDatabase;
  let mosquitto: MosquittoInstance;
  let system: RunningSystem & { removeDir(): void };
  let fixtures: { unitId: string; typeId: string };
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    database = await open();
    fixtures = await busFixtures(database);
    ({ mosquitto, system } = await systemOnMosquitto(database, { shared: true }));
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await system?.stop();
    system?.removeDir();
    await mosquitto?.remove();
    await database?.close();
  });

  async function registeredDevice(values: { code?: string; devEui?: string } = {}) {
    const id = await insertDeviceRow(database.db, { ...fixtures, ...values });
    const credential = await system.services.devices.ledger.register(id, SERVER_OPERATOR);
    return { id, credential };
  }

  /** The account reaches the broker just after registration: the first connection may have to wait for it. */
  async function device(credential: DeviceCredential, options: { reconnect?: boolean } = {}) {
    let client: MqttClient | null = null;
    await waitFor(
      async () => {
        client = await mqttClient(
          mosquitto.url,
          credential.username,
          credential.secret,
          `dev-${credential.username}`,
        ).catch(() => null);
        return client !== null;
      },
      10_000,
      'the device account on the broker',
    );
    const connected = client as unknown as MqttClient;
    if (options.reconnect) {
      // Reconnecting devices keep their unacknowledged QoS 1 reports and send them again.
      await connected.endAsync(true);
      const again = connect(mosquitto.url, {
        protocolVersion: 4,
        clientId: `dev-${credential.username}`,
        username: credential.username,
        password: credential.secret,
        reconnectPeriod: 200,
        clean: false,
      });
      await new Promise<void>((resolve) => again.once('connect', () => resolve()));
      clients.push(again);
      return again;
    }
    clients.push(connected);
    return connected;
  }

  async function runtimeOf(deviceId: string): Promise<RuntimeRow | null> {
    return system.services.iot.runtime.byDevice(deviceId, SERVER_OPERATOR);
  }

  async function historyIds(deviceId: string): Promise<string[]> {
    const rows = await database.db
      .select({ messageId: deviceHistory.messageId })
      .from(deviceHistory)
      .where(eq(deviceHistory.deviceId, deviceId));
    return rows.map((r) => r.messageId);
  }

  it('refuses a wrong secret and an unknown device, and admits the registered one', async () => {
    const code = `M-${randomBytes(3).toString('hex')}`;
    const { credential } = await registeredDevice({ code });
    await device(credential!);
    await expect(mqttClient(mosquitto.url, code, 'wrong-secret-00000000000000', 'w1')).rejects.toThrow();
    await expect(mqttClient(mosquitto.url, 'NOBODY', credential!.secret, 'w2')).rejects.toThrow();
  });

  it("stores a native report, and nothing a device publishes under another device's topic", async () => {
    const a = await registeredDevice({ code: `M-${randomBytes(3).toString('hex')}` });
    const b = await registeredDevice({ code: `M-${randomBytes(3).toString('hex')}` });
    const client = await device(a.credential!);
    await client.publishAsync(
      `dev/${STATION}/${b.credential!.username}/up`,
      encodeNativeReport({ messageId: 'spoof', lock: 'open' }),
      { qos: 1 },
    );
    await client.publishAsync(
      `dev/${STATION}/${a.credential!.username}/up`,
      encodeNativeReport({ messageId: 'own', lock: 'open', battery: 70 }),
      { qos: 1 },
    );
    await waitFor(async () => (await runtimeOf(a.id))?.lockState === 'open', 10_000, 'own report');
    expect(await historyIds(a.id)).toEqual(['own']);
    expect(await historyIds(b.id)).toEqual([]);
    expect((await runtimeOf(b.id))?.lockState).toBe('unknown');
  });

  it('takes ChirpStack uplinks from the integration account the server set up on the broker', async () => {
    const devEui = randomBytes(8).toString('hex').toUpperCase();
    const { id } = await registeredDevice({ devEui });
    const chirpstack = await mqttClient(
      mosquitto.url,
      'chirpstack',
      CHIRPSTACK_PASSWORD,
      `cs-${randomUUID()}`,
    );
    clients.push(chirpstack);
    await publishLockUplink(chirpstack, {
      applicationId: 'app-9',
      devEui,
      fCnt: 7,
      rssi: -98,
      report: { event: 'lockChanged', lock: 'open', door: 'closed', battery: 55 },
      seq: 7,
    });
    await waitFor(async () => (await runtimeOf(id))?.lockState === 'open', 10_000, 'the LoRaWAN uplink');
    expect((await historyIds(id)).length).toBe(1);
  });

  it('subscribes again after the broker was killed and restarted, and keeps storing reports', async () => {
    const code = `M-${randomBytes(3).toString('hex')}`;
    const { id, credential } = await registeredDevice({ code });
    const client = await device(credential!, { reconnect: true });
    const topic = `dev/${STATION}/${code}/up`;
    await client.publishAsync(topic, encodeNativeReport({ messageId: 'r-1' }), { qos: 1 });
    await waitFor(async () => (await historyIds(id)).length === 1, 10_000, 'the report before the restart');
    await mosquitto.kill('SIGTERM');
    await mosquitto.restart();
    await waitFor(() => system.deviceBus.bus.connected, 15_000, 'the server back on the broker');
    // Mosquitto 2.0.11 restores no shared subscription: the server renews its own once reconnected.
    await waitFor(
      async () => {
        await client.publishAsync(topic, encodeNativeReport({ messageId: `r-${Date.now()}` }), { qos: 1 });
        return (await historyIds(id)).length > 1;
      },
      15_000,
      'reports stored after the restart',
    );
  });
});

/**
 * A single server instance (plain subscriptions, which Mosquitto keeps in its persistent session): reports
 * sent before, during and after a broker restart all arrive, exactly once.
 */
describe.skipIf(!installed).each(databases)('a broker restart on Mosquitto ($kind)', ({ open }) => {
  let database: TestDatabase;
  let mosquitto: MosquittoInstance;
  let system: RunningSystem & { removeDir(): void };
  let fixtures: { unitId: string; typeId: string };
  let client: MqttClient | null = null;

  beforeAll(async () => {
    database = await open();
    fixtures = await busFixtures(database);
    ({ mosquitto, system } = await systemOnMosquitto(database, { shared: false }));
  });

  afterAll(async () => {
    await client?.endAsync(true).catch(() => undefined);
    await system?.stop();
    system?.removeDir();
    await mosquitto?.remove();
    await database?.close();
  });

  it('loses no QoS 1 report when the broker is killed by its PID and restarted', async () => {
    const code = `K-${randomBytes(3).toString('hex')}`;
    const id = await insertDeviceRow(database.db, { ...fixtures, code });
    const credential = (await system.services.devices.ledger.register(id, SERVER_OPERATOR))!;
    await waitFor(
      async () => {
        const probe = await mqttClient(mosquitto.url, code, credential.secret, `probe-${code}`).catch(
          () => null,
        );
        await probe?.endAsync(true);
        return probe !== null;
      },
      10_000,
      'the device account on the broker',
    );
    const device = connect(mosquitto.url, {
      protocolVersion: 4,
      clientId: `dev-${code}`,
      username: code,
      password: credential.secret,
      reconnectPeriod: 200,
      clean: false,
    });
    client = device;
    await new Promise<void>((resolve) => device.once('connect', () => resolve()));
    const topic = `dev/${STATION}/${code}/up`;
    const send = (from: number, to: number) => {
      for (let n = from; n <= to; n++) {
        device.publish(topic, encodeNativeReport({ messageId: `k-${n}`, battery: n % 100 }), { qos: 1 });
      }
    };
    const stored = async () => {
      const [row] = await database.db
        .select({ n: sql<number>`count(*)::int`, distinct: sql<number>`count(distinct message_id)::int` })
        .from(deviceHistory)
        .where(eq(deviceHistory.deviceId, id));
      return { n: Number(row?.n ?? 0), distinct: Number(row?.distinct ?? 0) };
    };
    send(1, 100);
    await mosquitto.kill('SIGTERM');
    send(101, 200);
    await mosquitto.restart();
    send(201, 300);
    await waitFor(async () => (await stored()).n >= 300, 30_000, 'every report after the restart');
    expect(await stored()).toEqual({ n: 300, distinct: 300 });
    expect(system.services.iot.ingest.snapshot().stored).toBe(300);
  });
});
