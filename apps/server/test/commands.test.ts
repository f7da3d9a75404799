import { randomBytes, randomUUID } from 'node:crypto';
import {
  ADMIN_STAFF_ID,
  type CommandState,
  type DeviceCommandRow,
  type DeviceCredential,
  type Page,
  ResultCode,
} from '@uiot/contracts';
import { type DeviceCommand, decodeNativeCommand, encodeNativeResult } from '@uiot/device-protocol';
import { eq } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STATION } from '../src/lib/station.ts';
import { waitFor } from '../src/lib/test-support.ts';
import { type DeviceCommandRecord, deviceCommand } from '../src/modules/commands/commands.schema.ts';
import { SERVER_OPERATOR } from '../src/modules/devices/device-operation.ts';
import type { RunningSystem } from '../src/system.ts';
import { databases, type TestDatabase } from './support/databases.ts';
import { busFixtures, mqttClient, startBusSystem, TEST_ADMIN_PASSWORD } from './support/device-bus.ts';
import { insertDeviceRow } from './support/devices.ts';

const STATION = DEFAULT_STATION.id;

/** A native MQTT lock on the test broker: collects the commands it receives, answers them if told to. */
async function nativeLock(
  system: RunningSystem,
  code: string,
  credential: DeviceCredential,
  answer: 'Success' | 'Failure' | null,
): Promise<{ client: MqttClient; received: DeviceCommand[] }> {
  const client = await mqttClient(system.deviceBus.mqttUrl, code, credential.secret, `lock-${randomUUID()}`);
  const received: DeviceCommand[] = [];
  client.on('message', (_topic, payload) => {
    const command = decodeNativeCommand(payload);
    if (!command.ok) return;
    received.push(command.value);
    if (answer === null) return;
    void client.publishAsync(
      `dev/${STATION}/${code}/ack`,
      encodeNativeResult({
        messageId: `r-${randomUUID()}`,
        commandId: command.value.id,
        outcome: answer,
        ...(answer === 'Failure' ? { detail: 'jammed' } : {}),
      }),
      { qos: 1 },
    );
  });
  await client.subscribeAsync(`dev/${STATION}/${code}/down`, { qos: 1 });
  return { client, received };
}

describe.each(databases)('device commands ($kind)', ({ open }) => {
  let database: TestDatabase;
  let system: (RunningSystem & { removeDir(): void }) | null = null;
  let fixtures: { unitId: string; typeId: string };
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    database = await open();
    fixtures = await busFixtures(database);
    system = await startBusSystem(database, { commandRetransmitSeconds: 1 });
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await system?.stop();
    system?.removeDir();
    await database?.close();
  });

  async function registeredLock(): Promise<{ id: string; code: string; credential: DeviceCredential }> {
    const code = `C-${randomBytes(3).toString('hex')}`;
    const id = await insertDeviceRow(database.db, { ...fixtures, code });
    const credential = await system!.services.devices.ledger.register(id, SERVER_OPERATOR);
    return { id, code, credential: credential! };
  }

  async function commandOf(id: string): Promise<DeviceCommandRecord> {
    const [row] = await database.db.select().from(deviceCommand).where(eq(deviceCommand.id, id));
    return row!;
  }

  async function stateBecomes(id: string, state: CommandState, timeoutMs = 10_000) {
    await waitFor(async () => (await commandOf(id)).state === state, timeoutMs, `command ${state}`);
    return commandOf(id);
  }

  const issue = (deviceId: string, extra: { maxRetransmit?: number; expireSeconds?: number } = {}) =>
    system!.services.commands.issue({
      deviceId,
      cmdCode: 'open',
      name: 'Open',
      params: { hold: 5 },
      expireSeconds: extra.expireSeconds ?? 60,
      maxRetransmit: extra.maxRetransmit ?? 2,
      staff: { id: 'admin', name: 'Administrator' },
    });

  it('goes Waitting → Success when the lock answers, and is not sent again', async () => {
    const lock = await registeredLock();
    const { client, received } = await nativeLock(system!, lock.code, lock.credential, 'Success');
    clients.push(client);
    const issued = await issue(lock.id);
    expect(issued).toMatchObject({ state: 'Waitting', attempts: 1, sendFlag: true, transport: 'mqtt' });
    expect(issued.receiveId).toBe(issued.id);
    const done = await stateBecomes(issued.id, 'Success');
    expect(done.nextCheckAt).toBeNull();
    expect(done.finishedAt).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // past a retransmit interval
    expect(received.map((c) => c.id)).toEqual([issued.id]);
    expect(received[0]).toMatchObject({ cmd: 'open', params: { hold: 5 } });
    expect((await commandOf(issued.id)).attempts).toBe(1);
  });

  it('goes Waitting → Failure with the lock’s reason when the lock refuses', async () => {
    const lock = await registeredLock();
    const { client } = await nativeLock(system!, lock.code, lock.credential, 'Failure');
    clients.push(client);
    const issued = await issue(lock.id);
    const done = await stateBecomes(issued.id, 'Failure');
    expect(done.detail).toBe('jammed');
  });

  it('sends an unanswered command again every interval, maxRetransmit times, then ends NB_Timeout', async () => {
    const lock = await registeredLock();
    const { client, received } = await nativeLock(system!, lock.code, lock.credential, null);
    clients.push(client);
    const issued = await issue(lock.id, { maxRetransmit: 2 });
    const done = await stateBecomes(issued.id, 'NB_Timeout', 15_000);
    expect(done.attempts).toBe(3);
    expect(received.map((c) => c.id)).toEqual([issued.id, issued.id, issued.id]);
    expect(done.nextCheckAt).toBeNull();
  });

  it('ends NB_Expired at its expiry time, however many retransmits were left', async () => {
    const lock = await registeredLock();
    const { client } = await nativeLock(system!, lock.code, lock.credential, null);
    clients.push(client);
    const issued = await issue(lock.id, { maxRetransmit: 50, expireSeconds: 2 });
    const done = await stateBecomes(issued.id, 'NB_Expired', 15_000);
    expect(done.attempts).toBeGreaterThanOrEqual(2);
    expect(done.attempts).toBeLessThan(50);
  });

  it('keeps retrying a lock that is not connected, and ends Failure for one that cannot be reached at all', async () => {
    const tcpCode = `T-${randomBytes(3).toString('hex')}`;
    const { device: deviceTable } = await import('../src/modules/devices/devices.schema.ts');
    const tcpId = await insertDeviceRow(database.db, { ...fixtures, code: tcpCode });
    await database.db.update(deviceTable).set({ iotType: 'TcpDirect' }).where(eq(deviceTable.id, tcpId));
    await system!.services.devices.ledger.register(tcpId, SERVER_OPERATOR);
    const offline = await issue(tcpId, { maxRetransmit: 1 });
    expect(offline).toMatchObject({ state: 'Waitting', attempts: 1, sendFlag: false, failureCode: 1118 });
    const timedOut = await stateBecomes(offline.id, 'NB_Timeout', 15_000);
    expect(timedOut).toMatchObject({ attempts: 2, sendFlag: false });

    const nbId = await insertDeviceRow(database.db, { ...fixtures, imei: `86${Date.now()}`.slice(0, 15) });
    await database.db.update(deviceTable).set({ iotType: 'ChinaTelecom' }).where(eq(deviceTable.id, nbId));
    await system!.services.devices.ledger.register(nbId, SERVER_OPERATOR);
    const unsupported = await issue(nbId);
    expect(unsupported).toMatchObject({
      state: 'Failure',
      attempts: 1,
      failureCode: 1117,
      failureParams: { network: 'ChinaTelecom' },
      nextCheckAt: null,
    });
  });

  it('lists the remote control records newest first, filtered, with the lock’s words and why a send failed', async () => {
    const login = await fetch(`${system!.url}/api/staff/loginCheck`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: ADMIN_STAFF_ID, pwd: TEST_ADMIN_PASSWORD }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const page = async (query: string, lang = 'en') => {
      const response = await fetch(`${system!.url}/api/deviceCommand/queryPage?${query}`, {
        headers: { authorization: `Bearer ${token}`, 'accept-language': lang },
      });
      const body = (await response.json()) as { code: number; data: Page<DeviceCommandRow> };
      expect(body.code).toBe(ResultCode.Ok);
      return body.data;
    };
    const all = await page('pageIndex=1&pageSize=50');
    expect(all.total).toBeGreaterThanOrEqual(6);
    const created = all.rows.map((r) => r.createTime);
    expect(created).toEqual([...created].sort().reverse());
    expect(all.rows.find((r) => r.state === 'Success')).toMatchObject({
      cmdCode: 'open',
      name: 'Open',
      params: '{"hold":5}',
      sendFlag: true,
      transport: 'mqtt',
      staffName: 'Administrator',
    });

    const failed = await page('pageIndex=1&pageSize=50&state=Failure');
    expect(failed.rows.length).toBeGreaterThanOrEqual(2);
    expect(failed.rows.every((r) => r.state === 'Failure')).toBe(true);
    expect(failed.rows.map((r) => r.detail)).toContain('jammed');
    expect(failed.rows.map((r) => r.failure)).toContainEqual({
      code: 1117,
      params: { network: 'ChinaTelecom' },
    });
    const timedOut = await page('pageIndex=1&pageSize=50&state=NB_Timeout');
    expect(timedOut.rows.map((r) => r.failure)).toContainEqual({ code: 1118, params: {} });

    const none = await page(
      `pageIndex=1&pageSize=50&startTime=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
    );
    expect(none).toEqual({ rows: [], total: 0 });
  });

  it('resumes a retransmit cycle after a restart of the server', async () => {
    const lock = await registeredLock();
    const first = await nativeLock(system!, lock.code, lock.credential, null);
    const issued = await issue(lock.id, { maxRetransmit: 3 });
    await waitFor(() => first.received.length === 1, 5_000, 'the first send');
    await first.client.endAsync(true);
    await system!.stop();
    system!.removeDir();

    system = await startBusSystem(database, { commandRetransmitSeconds: 1 });
    const second = await nativeLock(system, lock.code, lock.credential, null);
    clients.push(second.client);
    const done = await stateBecomes(issued.id, 'NB_Timeout', 20_000);
    expect(done.attempts).toBe(4);
    // The new server sent the rest of the cycle, with the same command id.
    expect(second.received.length).toBeGreaterThanOrEqual(1);
    expect(new Set(second.received.map((c) => c.id))).toEqual(new Set([issued.id]));
  });
});
