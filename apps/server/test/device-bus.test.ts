import { randomBytes, randomUUID } from 'node:crypto';
import { ADMIN_STAFF_ID, type DeviceCredential, type RuntimeRow } from '@uiot/contracts';
import {
  chirpstackDownTopic,
  chirpstackEventTopic,
  decodeChirpstackDown,
  decodeLockCommand,
  decodeNativeCommand,
  decodeNativeReport,
  encodeChirpstackStatus,
  encodeLockReport,
  encodeNativeReport,
  encodeNativeResult,
  encodeNbReport,
  encodeTcpAuth,
  encodeTcpReport,
  LOCK_FPORT,
} from '@uiot/device-protocol';
import { eq, sql } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STATION } from '../src/lib/station.ts';
import { waitFor } from '../src/lib/test-support.ts';
import { lockSequenceOf } from '../src/modules/commands/command-send.ts';
import { SERVER_OPERATOR } from '../src/modules/devices/device-operation.ts';
import { device as deviceTable } from '../src/modules/devices/devices.schema.ts';
import { deviceHistory, deviceRuntime } from '../src/modules/iot/iot.schema.ts';
import { sweepOfflineDevices } from '../src/modules/iot/runtime-jobs.ts';
import type { RunningSystem } from '../src/system.ts';
import { databases, type TestDatabase } from './support/databases.ts';
import {
  busFixtures,
  CHIRPSTACK_PASSWORD,
  mqttClient,
  NB_SECRETS,
  publishLockUplink,
  startBusSystem,
  TEST_ADMIN_PASSWORD,
  tcpDevice,
} from './support/device-bus.ts';
import { insertDeviceRow } from './support/devices.ts';

const STATION = DEFAULT_STATION.id;

describe.each(databases)('device bus on the embedded broker ($kind)', ({ open }) => {
  let database: TestDatabase;
  let system: RunningSystem & { removeDir(): void };
  let fixtures: { unitId: string; typeId: string };
  let token: string;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    database = await open();
    fixtures = await busFixtures(database);
    system = await startBusSystem(database);
    const login = await fetch(`${system.url}/api/staff/loginCheck`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: ADMIN_STAFF_ID, pwd: TEST_ADMIN_PASSWORD }),
    });
    token = ((await login.json()) as { data: { token: string } }).data.token;
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await system?.stop();
    system?.removeDir();
    await database?.close();
  });

  /** A device in the ledger, registered through the service: its credential when it has a code. */
  async function registeredDevice(
    values: { code?: string; imei?: string; devEui?: string } = {},
  ): Promise<{ id: string; credential: DeviceCredential | null }> {
    const id = await insertDeviceRow(database.db, { ...fixtures, ...values });
    const credential = await system.services.devices.ledger.register(id, SERVER_OPERATOR);
    return { id, credential };
  }

  async function runtimeOf(deviceId: string): Promise<RuntimeRow | null> {
    const response = await fetch(`${system.url}/api/runtime/getByDeviceId?deviceId=${deviceId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await response.json()) as { success: boolean; data: RuntimeRow | null };
    expect(body.success).toBe(true);
    return body.data;
  }

  async function historyCount(deviceId: string): Promise<number> {
    const [row] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(deviceHistory)
      .where(eq(deviceHistory.deviceId, deviceId));
    return Number(row?.n ?? 0);
  }

  /** The decoded content the history rows of a device keep, oldest first. */
  async function storedContents(deviceId: string): Promise<unknown[]> {
    const rows = await database.db
      .select({ content: deviceHistory.content })
      .from(deviceHistory)
      .where(eq(deviceHistory.deviceId, deviceId))
      .orderBy(deviceHistory.id);
    return rows.map((r) => r.content);
  }

  async function device(code: string, secret: string): Promise<MqttClient> {
    const client = await mqttClient(system.deviceBus.mqttUrl, code, secret, `dev-${code}`);
    clients.push(client);
    return client;
  }

  it('issues a ≥128-bit secret at registration and only to devices with a code', async () => {
    const withCode = await registeredDevice({ code: `L-${randomBytes(3).toString('hex')}` });
    expect(withCode.credential?.stationId).toBe(STATION);
    expect(Buffer.from(withCode.credential!.secret, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    const withoutCode = await registeredDevice({ imei: `86${Date.now().toString().slice(-13)}` });
    expect(withoutCode.credential).toBeNull();
  });

  it('resets a device secret through the API: the old one is refused, the new one admitted', async () => {
    const code = `L-${randomBytes(3).toString('hex')}`;
    const { id, credential } = await registeredDevice({ code });
    const reset = async (deviceId: string) => {
      const response = await fetch(`${system.url}/api/device/resetSecret?id=${deviceId}`, {
        headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
      });
      return (await response.json()) as {
        success: boolean;
        code: number;
        message: string;
        data: DeviceCredential;
      };
    };
    const fresh = await reset(id);
    expect(fresh.success).toBe(true);
    expect(fresh.data).toMatchObject({ username: code, stationId: STATION });
    expect(fresh.data.secret).not.toBe(credential!.secret);
    await expect(mqttClient(system.deviceBus.mqttUrl, code, credential!.secret, 'r1')).rejects.toThrow();
    const client = await device(code, fresh.data.secret);
    expect(client.connected).toBe(true);

    const unregistered = await insertDeviceRow(database.db, {
      ...fixtures,
      code: `L-${randomBytes(3).toString('hex')}`,
    });
    expect(await reset(unregistered)).toMatchObject({ success: false, code: 1111 });
    const { id: withoutCode } = await registeredDevice({ imei: `35${Date.now().toString().slice(-13)}` });
    const refused = await reset(withoutCode);
    expect(refused).toMatchObject({ success: false, code: 1116 });
    expect(refused.message).toContain('no code');
  });

  it('refuses a device with a wrong secret, an unknown code and an unregistered device', async () => {
    const code = `L-${randomBytes(3).toString('hex')}`;
    const { id, credential } = await registeredDevice({ code });
    await expect(
      mqttClient(system.deviceBus.mqttUrl, code, 'wrong-secret-0000000000', 'x1'),
    ).rejects.toThrow();
    await expect(mqttClient(system.deviceBus.mqttUrl, 'NO-SUCH', credential!.secret, 'x2')).rejects.toThrow();
    await system.services.devices.ledger.unregister(id, SERVER_OPERATOR);
    await expect(mqttClient(system.deviceBus.mqttUrl, code, credential!.secret, 'x3')).rejects.toThrow();
  });

  it('turns a native MQTT report into runtime data and a history record, once per message id', async () => {
    const code = `L-${randomBytes(3).toString('hex')}`;
    const { id, credential } = await registeredDevice({ code });
    const client = await device(code, credential!.secret);
    const topic = `dev/${STATION}/${code}/up`;
    const first = encodeNativeReport({
      messageId: 'm-1',
      event: 'lockChanged',
      lock: 'open',
      door: 'open',
      battery: 88,
      rssi: -70,
      props: { temp: 21.5 },
    });
    await client.publishAsync(topic, first, { qos: 1 });
    await waitFor(async () => (await runtimeOf(id))?.lockState === 'open', 10_000, 'runtime of m-1');
    await client.publishAsync(
      topic,
      encodeNativeReport({ messageId: 'm-2', event: 'lockChanged', lock: 'closed', door: 'closed' }),
      { qos: 1 },
    );
    await waitFor(async () => (await runtimeOf(id))?.lockState === 'closed', 10_000, 'runtime of m-2');
    // The same message id again: nothing changes, not the runtime data, not the history.
    await client.publishAsync(topic, first, { qos: 1 });
    await client.publishAsync(topic, encodeNativeReport({ messageId: 'm-3', battery: 87 }), { qos: 1 });
    await waitFor(async () => (await runtimeOf(id))?.battery === 87, 10_000, 'runtime of m-3');
    const runtime = await runtimeOf(id);
    expect(runtime).toMatchObject({
      deviceId: id,
      online: true,
      lockState: 'closed',
      doorState: 'closed',
      battery: 87,
      rssi: -70,
      runState: 'normal',
      props: { temp: 21.5 },
      offlineSeconds: null,
    });
    expect(await historyCount(id)).toBe(3);
    expect(system.services.iot.ingest.snapshot().duplicates).toBeGreaterThanOrEqual(1);
    // The ledger shows the lock state the lock reported.
    const ledger = await fetch(`${system.url}/api/device/getById?id=${id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await ledger.json()) as { data: { lockStatus: string; status: string } }).data).toMatchObject({
      lockStatus: 'closed',
      status: 'normal',
    });

    const history = await fetch(`${system.url}/api/deviceHistory/queryPage?deviceId=${id}&pageSize=10`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const page = (await history.json()) as {
      data: {
        total: number;
        rows: Array<{ messageId: string; rawMessage: string; protocol: string; content: string }>;
      };
    };
    expect(page.data.total).toBe(3);
    expect(page.data.rows.map((r) => r.messageId).sort()).toEqual(['m-1', 'm-2', 'm-3']);
    const m1 = page.data.rows.find((r) => r.messageId === 'm-1');
    expect(m1?.rawMessage).toBe(first);
    expect(page.data.rows.every((r) => r.protocol === 'mqtt')).toBe(true);
    // A native report's decoded content is not stored but read again from the raw message, as it was.
    const decodedFirst = decodeNativeReport(first);
    expect(JSON.parse(m1?.content ?? 'null')).toEqual(decodedFirst.ok ? decodedFirst.value : 'not decoded');
    expect(await storedContents(id)).toEqual([null, null, null]);
  });

  it('keeps a command result as history and a sign of life', async () => {
    const code = `L-${randomBytes(3).toString('hex')}`;
    const { id, credential } = await registeredDevice({ code });
    const client = await device(code, credential!.secret);
    await client.publishAsync(
      `dev/${STATION}/${code}/ack`,
      encodeNativeResult({ messageId: 'a-1', commandId: randomUUID(), outcome: 'Failure', detail: 'jammed' }),
      { qos: 1 },
    );
    await waitFor(async () => (await runtimeOf(id))?.online === true, 10_000, 'online after a result');
    expect(await historyCount(id)).toBe(1);
    // A result's kind comes from its topic, so its decoded content is kept with the raw message.
    expect(await storedContents(id)).toEqual([
      expect.objectContaining({
        kind: 'commandResult',
        messageId: 'a-1',
        outcome: 'Failure',
        detail: 'jammed',
      }),
    ]);
  });

  it("closes a device that publishes to another device's topic, and stores nothing for either", async () => {
    const code = `L-${randomBytes(3).toString('hex')}`;
    const other = await registeredDevice({ code: `L-${randomBytes(3).toString('hex')}` });
    const { credential } = await registeredDevice({ code });
    const client = await device(code, credential!.secret);
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.publish(
      `dev/${STATION}/${other.credential!.username}/up`,
      encodeNativeReport({ messageId: 'x' }),
      {
        qos: 1,
      },
    );
    await closed;
    expect(await historyCount(other.id)).toBe(0);
  });

  it('counts and logs malformed, oversized and unknown-device messages without stopping', async () => {
    const code = `L-${randomBytes(3).toString('hex')}`;
    const { id, credential } = await registeredDevice({ code });
    const client = await device(code, credential!.secret);
    const before = system.services.iot.ingest.snapshot().rejected;
    const topic = `dev/${STATION}/${code}/up`;
    await client.publishAsync(topic, '{not json', { qos: 1 });
    await client.publishAsync(topic, JSON.stringify({ id: 'big', props: { x: 'y'.repeat(9000) } }), {
      qos: 1,
    });
    await client.publishAsync(topic, JSON.stringify({ id: 'bad', battery: 250 }), { qos: 1 });
    // Not UTF-8: refused before it is parsed or kept as the raw message.
    await client.publishAsync(topic, Buffer.from([0x7b, 0xff, 0x7d]), { qos: 1 });
    await client.publishAsync(topic, encodeNativeReport({ messageId: 'ok-1', battery: 50 }), { qos: 1 });
    await waitFor(
      async () => (await runtimeOf(id))?.battery === 50,
      10_000,
      'the good report after bad ones',
    );
    const after = system.services.iot.ingest.snapshot().rejected;
    expect(after.malformed - before.malformed).toBe(2);
    expect(after.oversized - before.oversized).toBe(1);
    expect(after.invalid - before.invalid).toBe(1);
    expect(await historyCount(id)).toBe(1);
  });

  it("finding 3: refuses a device message holding NUL as invalid, on every way in, and stores the other devices' messages", async () => {
    const codeA = `L-${randomBytes(3).toString('hex')}`;
    const codeB = `L-${randomBytes(3).toString('hex')}`;
    const a = await registeredDevice({ code: codeA });
    const b = await registeredDevice({ code: codeB });
    const devEui = randomBytes(8).toString('hex').toUpperCase();
    const lorawan = await registeredDevice({ devEui });
    const imei = `86${randomBytes(7).readUIntBE(0, 6).toString().padStart(13, '0').slice(0, 13)}`;
    await registeredDevice({ imei });
    const clientA = await device(codeA, a.credential!.secret);
    const clientB = await device(codeB, b.credential!.secret);
    const chirpstack = await mqttClient(
      system.deviceBus.mqttUrl,
      'chirpstack',
      CHIRPSTACK_PASSWORD,
      'cs-nul',
    );
    clients.push(chirpstack);
    const invalidBefore = system.services.iot.ingest.snapshot().rejected.invalid;

    // Sent together, so that the good report may share a batch with the bad ones.
    await Promise.all([
      clientA.publishAsync(
        `dev/${STATION}/${codeA}/up`,
        '{"id":"nul-1","battery":40,"props":{"note":"a\\u0000b"}}',
        {
          qos: 1,
        },
      ),
      clientA.publishAsync(
        `dev/${STATION}/${codeA}/ack`,
        '{"id":"nul-2","cmd":"c-1","result":"failure","detail":"jam\\u0000med"}',
        { qos: 1 },
      ),
      clientB.publishAsync(
        `dev/${STATION}/${codeB}/up`,
        encodeNativeReport({ messageId: 'ok-1', battery: 41 }),
        {
          qos: 1,
        },
      ),
      publishLockUplink(chirpstack, {
        applicationId: 'app-nul',
        devEui,
        fCnt: 1,
        rssi: -90,
        report: { event: 'status', battery: 30, props: { note: 'x\u0000y' } },
      }),
    ]);
    const tcp = await tcpDevice(system.deviceBus.tcpDirectPort);
    tcp.send(encodeTcpAuth(STATION, codeA, a.credential!.secret));
    tcp.send(encodeTcpReport({ messageId: 'nul-3', props: { 'k\u0000': 1 } }));
    const nb = await fetch(`${system.url}/api/nbiot/chinaTelecom/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-callback-token': NB_SECRETS.ChinaTelecom },
      body: JSON.stringify({
        ...(encodeNbReport('ChinaTelecom', {
          imei,
          messageId: 'nb-nul',
          time: new Date(),
          data: encodeLockReport({ event: 'heartbeat', battery: 70 }),
        }) as object),
        serviceId: 'Lock\u0000Data',
      }),
    });
    expect(nb.status).toBe(400);

    await waitFor(async () => (await runtimeOf(b.id))?.battery === 41, 10_000, "the other device's report");
    await waitFor(
      async () => system.services.iot.ingest.snapshot().rejected.invalid - invalidBefore === 5,
      10_000,
      'five refusals counted as invalid',
    );
    tcp.end();
    expect(tcp.received).toEqual([{ type: 'authResult', ok: true }]);
    expect(await historyCount(a.id)).toBe(0);
    expect(await historyCount(lorawan.id)).toBe(0);
    expect(await historyCount(b.id)).toBe(1);
  });

  it('reads ChirpStack uplinks (lock payload) and status events of a registered LoRaWAN device', async () => {
    const devEui = randomBytes(8).toString('hex').toUpperCase();
    const { id } = await registeredDevice({ devEui });
    const chirpstack = await mqttClient(system.deviceBus.mqttUrl, 'chirpstack', CHIRPSTACK_PASSWORD, 'cs-1');
    clients.push(chirpstack);
    await publishLockUplink(chirpstack, {
      applicationId: 'app-1',
      devEui,
      fCnt: 1,
      rssi: -101,
      report: { event: 'doorChanged', lock: 'closed', door: 'open', battery: 64 },
      seq: 1,
    });
    await waitFor(async () => (await runtimeOf(id))?.doorState === 'open', 10_000, 'LoRaWAN uplink');
    await chirpstack.publishAsync(
      chirpstackEventTopic('app-1', devEui, 'status'),
      encodeChirpstackStatus({
        applicationId: 'app-1',
        devEui,
        deduplicationId: randomUUID(),
        time: new Date(),
        batteryLevel: 63,
      }),
      { qos: 1 },
    );
    await waitFor(async () => (await runtimeOf(id))?.battery === 63, 10_000, 'LoRaWAN status');
    expect(await runtimeOf(id)).toMatchObject({ rssi: -101, devEui, lockState: 'closed' });
    await expect(
      mqttClient(system.deviceBus.mqttUrl, 'chirpstack', 'wrong-password-123', 'cs-2'),
    ).rejects.toThrow();
  });

  it('takes NB-IoT platform callbacks with the right shared secret only', async () => {
    const imei = `86${randomBytes(7).readUIntBE(0, 6).toString().padStart(13, '0').slice(0, 13)}`;
    const { id } = await registeredDevice({ imei });
    const body = encodeNbReport('ChinaTelecom', {
      imei,
      messageId: 'nb-1',
      time: new Date(),
      data: encodeLockReport({ event: 'heartbeat', lock: 'closed', door: 'closed', battery: 77 }),
    });
    const post = (tokenValue: string | null) =>
      fetch(`${system.url}/api/nbiot/chinaTelecom/callback`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(tokenValue ? { 'x-callback-token': tokenValue } : {}),
        },
        body: JSON.stringify(body),
      });
    expect((await post(null)).status).toBe(403);
    expect((await post('not-the-secret-at-all')).status).toBe(403);
    const accepted = await post(NB_SECRETS.ChinaTelecom);
    expect(accepted.status).toBe(200);
    expect(((await accepted.json()) as { data: { accepted: number } }).data.accepted).toBe(1);
    expect(await runtimeOf(id)).toMatchObject({ battery: 77, lockState: 'closed', online: true });
    const again = await post(NB_SECRETS.ChinaTelecom);
    expect(((await again.json()) as { data: { duplicates: number } }).data.duplicates).toBe(1);
    expect(await historyCount(id)).toBe(1);
  });

  describe('finding 4: NB-IoT callbacks check the token before the body, and never answer 500', () => {
    const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const post = (body: string, tokenValue: string | null, platform = 'chinaTelecom') =>
      fetch(`${system.url}/api/nbiot/${platform}/callback`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'accept-language': 'en',
          ...(tokenValue ? { 'x-callback-token': tokenValue } : {}),
        },
        body,
      });

    it.each(['chinaTelecom', 'chinaUnicom', 'chinaMobile'])(
      '%s: a body nested 5 000 deep is 403 without the token, 400 with it',
      async (platform) => {
        const secret =
          NB_SECRETS[`${platform[0]!.toUpperCase()}${platform.slice(1)}` as keyof typeof NB_SECRETS];
        const before = system.services.iot.ingest.snapshot().rejected;
        for (const tokenValue of [null, 'not-the-secret-at-all']) {
          const refused = await post(deep(5_000), tokenValue, platform);
          expect(refused.status).toBe(403);
          expect(await refused.json()).toMatchObject({ success: false, code: 403 });
        }
        const tooDeep = await post(deep(5_000), secret, platform);
        expect(tooDeep.status).toBe(400);
        expect(await tooDeep.json()).toMatchObject({
          success: false,
          code: 1070,
          message: 'The submitted content is nested too deeply (at most 64 levels)',
        });
        const after = system.services.iot.ingest.snapshot().rejected;
        expect(after.unauthorized - before.unauthorized).toBe(2);
        expect(after.malformed - before.malformed).toBe(1);
      },
    );

    it('reads no body before the token: malformed JSON and an oversized body are 403 without it', async () => {
      expect((await post('{"not json', null)).status).toBe(403);
      expect((await post(`[${'1,'.repeat(600_000)}1]`, null)).status).toBe(403);
      expect((await post('{"not json', NB_SECRETS.ChinaTelecom)).status).toBe(400);
      expect((await post(`[${'1,'.repeat(600_000)}1]`, NB_SECRETS.ChinaTelecom)).status).toBe(413);
    });

    it('answers every body shape with the token 200 or 4xx, never 500', async () => {
      const bodies = [
        deep(64),
        deep(65),
        `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
        '"just a string"',
        'null',
        '[]',
        JSON.stringify({ messageType: 'dataReport', IMEI: 'x'.repeat(10_000) }),
        JSON.stringify(Array.from({ length: 2_000 }, () => ({ messageType: 'dataReport' }))),
      ];
      for (const body of bodies) {
        const response = await post(body, NB_SECRETS.ChinaTelecom);
        expect(response.status, body.slice(0, 40)).toBeLessThan(500);
        expect(await response.json()).toHaveProperty('success');
      }
    });
  });

  it('authenticates TcpDirect locks, confirms each stored report and refuses a wrong secret', async () => {
    const code = `L-${randomBytes(3).toString('hex')}`;
    const { id, credential } = await registeredDevice({ code });
    const wrong = await tcpDevice(system.deviceBus.tcpDirectPort);
    wrong.send(encodeTcpAuth(STATION, code, 'not-the-secret-000000'));
    await wrong.closed;
    expect(wrong.received).toEqual([{ type: 'authResult', ok: false }]);

    const lock = await tcpDevice(system.deviceBus.tcpDirectPort);
    lock.send(encodeTcpAuth(STATION, code, credential!.secret));
    lock.send(encodeTcpReport({ messageId: 't-1', event: 'heartbeat', lock: 'open', battery: 91 }));
    await waitFor(() => lock.received.length === 2, 10_000, 'auth result and receipt');
    expect(lock.received).toEqual([
      { type: 'authResult', ok: true },
      { type: 'received', id: 't-1' },
    ]);
    expect(await runtimeOf(id)).toMatchObject({ lockState: 'open', battery: 91 });
    // A new secret ends the session that authenticated with the old one.
    await system.services.devices.ledger.resetSecret(id, SERVER_OPERATOR);
    await lock.closed;
  });

  it('takes a TcpDirect lock’s resent backlog in batches, each message confirmed once committed', async () => {
    const code = `L-${randomBytes(3).toString('hex')}`;
    const { id, credential } = await registeredDevice({ code });
    const lock = await tcpDevice(system.deviceBus.tcpDirectPort);
    lock.send(encodeTcpAuth(STATION, code, credential!.secret));
    // What a lock kept while away, sent again at once after it authenticated: one write of 2 000 frames.
    const before = system.services.iot.ingest.snapshot();
    const frames = Array.from({ length: 2_000 }, (_, i) =>
      encodeTcpReport({ messageId: `kept-${i}`, event: 'heartbeat', lock: 'open', battery: 10 + (i % 80) }),
    );
    lock.send(Buffer.concat(frames));
    await waitFor(() => lock.received.length === 2_001, 60_000, 'a receipt for every message');
    const after = system.services.iot.ingest.snapshot();
    expect(after.stored - before.stored).toBe(2_000);
    // One commit per message would be 2 000 batches (about 8 ms each).
    expect(after.batches - before.batches).toBeLessThan(200);
    expect(new Set(lock.received.slice(1).map((r) => (r as { id?: string }).id)).size).toBe(2_000);
    expect(await runtimeOf(id)).toMatchObject({ lockState: 'open', battery: 10 + (1_999 % 80) });
    // Received within a few milliseconds, the messages keep their order in their receive times.
    const received = await database.db
      .select({ messageId: deviceHistory.messageId })
      .from(deviceHistory)
      .where(eq(deviceHistory.deviceId, id))
      .orderBy(deviceHistory.receiveTime);
    expect(received.map((r) => r.messageId)).toEqual(frames.map((_, i) => `kept-${i}`));
    lock.end();
  });

  it("sends commands down by each device's way: native MQTT, TcpDirect and a ChirpStack downlink", async () => {
    const commands = system.deviceBus.commands;
    const command = { id: randomUUID(), cmd: 'open', params: { hold: 5 }, expireAt: Date.now() + 60_000 };

    // Native MQTT: the lock receives it on its own down topic.
    const code = `L-${randomBytes(3).toString('hex')}`;
    const native = await registeredDevice({ code });
    const client = await device(code, native.credential!.secret);
    const got: string[] = [];
    client.on('message', (_topic, payload) => got.push(payload.toString()));
    await client.subscribeAsync(`dev/${STATION}/${code}/down`, { qos: 1 });
    expect(await commands.send(native.id, command)).toEqual({ transport: 'mqtt', receiveId: command.id });
    await waitFor(() => got.length === 1, 5_000, 'the command on the down topic');
    expect(decodeNativeCommand(got[0]!)).toEqual({ ok: true, value: command });

    // TcpDirect: a frame on the open connection, refused while the lock is not connected.
    const tcpCode = `T-${randomBytes(3).toString('hex')}`;
    const tcpId = await insertDeviceRow(database.db, { ...fixtures, code: tcpCode });
    await database.db.update(deviceTable).set({ iotType: 'TcpDirect' }).where(eq(deviceTable.id, tcpId));
    const tcpCredential = (await system.services.devices.ledger.register(tcpId, SERVER_OPERATOR))!;
    await expect(commands.send(tcpId, command)).rejects.toMatchObject({ code: 1118 });
    const lock = await tcpDevice(system.deviceBus.tcpDirectPort);
    lock.send(encodeTcpAuth(STATION, tcpCode, tcpCredential.secret));
    await waitFor(() => lock.received.length === 1, 5_000, 'authenticated');
    expect(await commands.send(tcpId, command)).toEqual({ transport: 'tcp', receiveId: command.id });
    await waitFor(() => lock.received.length === 2, 5_000, 'the command frame');
    expect(lock.received[1]).toEqual({ type: 'command', command });
    lock.end();

    // LoRaWAN: known after an uplink, then a confirmed downlink to the uplink's application.
    const devEui = randomBytes(8).toString('hex').toUpperCase();
    const lora = await registeredDevice({ devEui });
    await expect(commands.send(lora.id, command)).rejects.toMatchObject({ code: 1118 });
    const chirpstack = await mqttClient(
      system.deviceBus.mqttUrl,
      'chirpstack',
      CHIRPSTACK_PASSWORD,
      'cs-down',
    );
    clients.push(chirpstack);
    const downlinks: Array<[string, string]> = [];
    chirpstack.on('message', (topic, payload) => downlinks.push([topic, payload.toString()]));
    await chirpstack.subscribeAsync('application/+/device/+/command/down', { qos: 1 });
    await publishLockUplink(chirpstack, {
      applicationId: 'app-7',
      devEui,
      fCnt: 3,
      rssi: -90,
      report: { event: 'heartbeat', lock: 'closed', door: 'closed', battery: 70 },
    });
    await waitFor(async () => (await runtimeOf(lora.id))?.battery === 70, 10_000, 'the uplink');
    const sent = await commands.send(lora.id, command);
    expect(sent).toEqual({ transport: 'chirpstack', receiveId: `seq:${lockSequenceOf(command.id)}` });
    await waitFor(() => downlinks.length === 1, 5_000, 'the downlink');
    expect(downlinks[0]![0]).toBe(chirpstackDownTopic('app-7', devEui));
    const down = decodeChirpstackDown(downlinks[0]![1]);
    expect(
      down.ok && { confirmed: down.value.confirmed, fPort: down.value.fPort, id: down.value.id },
    ).toEqual({
      confirmed: true,
      fPort: LOCK_FPORT,
      id: command.id,
    });
    expect(down.ok && decodeLockCommand(down.value.data)).toEqual({
      ok: true,
      value: { seq: lockSequenceOf(command.id), cmd: 'open', params: { hold: 5 } },
    });
    // The binary payload carries numbers only: a text parameter is refused, not dropped.
    await expect(
      commands.send(lora.id, {
        ...command,
        id: randomUUID(),
        cmd: 'setPassword',
        params: { password: '12345678' },
      }),
    ).rejects.toMatchObject({ code: 1117, params: { network: 'LoRaWAN setPassword' } });
    expect(downlinks).toHaveLength(1);

    // NB-IoT devices and unregistered ones are refused with a reason.
    const nb = await insertDeviceRow(database.db, {
      ...fixtures,
      imei: `86${Date.now().toString().slice(-13)}`,
    });
    await database.db
      .update(deviceTable)
      .set({ iotType: 'ChinaMobile', regist: true })
      .where(eq(deviceTable.id, nb));
    await expect(commands.send(nb, command)).rejects.toMatchObject({ code: 1117 });
    const unregistered = await insertDeviceRow(database.db, {
      ...fixtures,
      code: `U-${randomBytes(3).toString('hex')}`,
    });
    await expect(commands.send(unregistered, command)).rejects.toMatchObject({ code: 1111 });
  });

  it('lists runtime data with filters through the API', async () => {
    const response = await fetch(`${system.url}/api/runtime/queryPage?online=true&pageSize=100`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await response.json()) as { data: { total: number; rows: RuntimeRow[] } };
    expect(body.data.total).toBeGreaterThanOrEqual(4);
    expect(body.data.rows.every((r) => r.online)).toBe(true);
    const closed = await fetch(`${system.url}/api/runtime/queryPage?lockState=open&pageSize=100`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const open = (await closed.json()) as { data: { rows: RuntimeRow[] } };
    expect(open.data.rows.every((r) => r.lockState === 'open')).toBe(true);
  });

  it('sorts by what the columns show: offline time online first, shortest next, never heard last', async () => {
    const prefix = `Sort-${randomBytes(3).toString('hex')}`;
    const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);
    const runtimes = {
      online: { online: true, lastCollectTime: ago(5), offlineSince: null },
      hour: { online: false, lastCollectTime: ago(4200), offlineSince: ago(3600) },
      tenMinutes: { online: false, lastCollectTime: ago(1200), offlineSince: ago(600) },
      // Silent past its allowance, not yet stamped by the sweep: offline since its last message.
      unstamped: { online: false, lastCollectTime: ago(1800), offlineSince: null },
      neverHeard: null,
    };
    const names = new Map<string, string>();
    for (const [key, runtime] of Object.entries(runtimes)) {
      const id = await insertDeviceRow(database.db, { ...fixtures, name: `${prefix}-${key}`, regist: true });
      names.set(id, key);
      if (runtime) await database.db.insert(deviceRuntime).values({ deviceId: id, ...runtime });
    }
    const sorted = async (ascending: boolean, sort = 'offlineSeconds') => {
      const response = await fetch(
        `${system.url}/api/runtime/queryPage?name=${prefix}&sort=${sort}&ascending=${ascending}&pageSize=100`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      const body = (await response.json()) as { data: { rows: RuntimeRow[] } };
      return body.data.rows.map((r) => names.get(r.deviceId));
    };
    expect(await sorted(true)).toEqual(['online', 'tenMinutes', 'unstamped', 'hour', 'neverHeard']);
    expect(await sorted(false)).toEqual(['neverHeard', 'hour', 'unstamped', 'tenMinutes', 'online']);
    // A device never heard from is shown offline, and sorts with the offline ones.
    expect((await sorted(true, 'online')).at(-1)).toBe('online');
  });

  it('marks a silent device offline after twice its heartbeat, with its offline duration', async () => {
    const code = `L-${randomBytes(3).toString('hex')}`;
    const { id, credential } = await registeredDevice({ code });
    const client = await device(code, credential!.secret);
    await client.publishAsync(`dev/${STATION}/${code}/up`, encodeNativeReport({ messageId: 's-1' }), {
      qos: 1,
    });
    await waitFor(async () => (await runtimeOf(id))?.online === true, 10_000, 'online');
    const last = new Date((await runtimeOf(id))!.lastCollectTime!);
    // The fixture type's heartbeat is 300 s: still online just before 600 s of silence, offline after.
    // The sweep's devices are announced as the runtime job does: ingest writes their next report in full.
    const sweptAt = async (ms: number) => {
      const offline = await sweepOfflineDevices(database.db, new Date(last.getTime() + ms));
      system.services.events.publish('runtime.offline', offline);
      return offline.map((d) => d.deviceId);
    };
    expect(await sweptAt(599_000)).not.toContain(id);
    expect(await sweptAt(601_000)).toContain(id);
    const runtime = (await runtimeOf(id))!;
    expect(runtime.online).toBe(false);
    // Offline since the allowance ran out (ahead of this test's clock, so no duration yet).
    expect(runtime.offlineSeconds).toBe(0);
    const [stamp] = await database.db
      .select({ since: deviceRuntime.offlineSince })
      .from(deviceRuntime)
      .where(eq(deviceRuntime.deviceId, id));
    expect(stamp?.since?.getTime()).toBe(last.getTime() + 600_000);
    // The console counts on from that moment, with the server's rule.
    expect(runtime.offlineSince).toBe(new Date(last.getTime() + 600_000).toISOString());
    // The next message brings it back.
    await client.publishAsync(`dev/${STATION}/${code}/up`, encodeNativeReport({ messageId: 's-2' }), {
      qos: 1,
    });
    await waitFor(async () => (await runtimeOf(id))?.online === true, 10_000, 'online again');
    expect(await runtimeOf(id)).toMatchObject({ offlineSeconds: null, offlineSince: null });
  });

  it('exports telemetry records of a time range as CSV, and refuses an export without one', async () => {
    const headers = { authorization: `Bearer ${token}`, 'accept-language': 'en' };
    const missing = await fetch(`${system.url}/api/deviceHistory/export`, { headers });
    expect(missing.status).toBe(400);
    const start = new Date(Date.now() - 3_600_000).toISOString();
    const end = new Date(Date.now() + 60_000).toISOString();
    const csv = await fetch(
      `${system.url}/api/deviceHistory/export?startTime=${encodeURIComponent(start)}&endTime=${encodeURIComponent(end)}`,
      { headers },
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const text = await csv.text();
    expect(text.split('\r\n')[0]).toContain('Raw message');
    expect(text).toContain('m-1');
  });

  it('removes telemetry records older than the retention, and only those', async () => {
    const before = await database.db.select({ n: sql<number>`count(*)::int` }).from(deviceHistory);
    expect(await system.services.iot.history.purgeBefore(new Date(Date.now() - 86_400_000))).toBe(0);
    const removed = await system.services.iot.history.purgeBefore(new Date(Date.now() + 60_000), 3);
    expect(removed).toBe(Number(before[0]!.n));
    const after = await database.db.select({ n: sql<number>`count(*)::int` }).from(deviceHistory);
    expect(Number(after[0]!.n)).toBe(0);
  });
});
