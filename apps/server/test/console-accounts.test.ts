import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  ADMIN_STAFF_ID,
  api,
  type BrokerLogin,
  type ConsoleEvent,
  consoleEvent,
  consoleSubscription,
  type Endpoint,
  type EndpointBody,
  ResultCode,
} from '@uiot/contracts';
import { encodeNativeReport } from '@uiot/device-protocol';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/lib/password-hash.ts';
import { DEFAULT_STATION } from '../src/lib/station.ts';
import { waitFor } from '../src/lib/test-support.ts';
import { SERVER_OPERATOR } from '../src/modules/devices/device-operation.ts';
import { staff } from '../src/modules/org/org.schema.ts';
import type { RunningSystem } from '../src/system.ts';
import { ADMIN_NAME, ADMIN_PASSWORD, openTestApp, type TestApp } from './support/app.ts';
import { databases, type TestDatabase } from './support/databases.ts';
import {
  busFixtures,
  callApi,
  mqttClient,
  startBusSystem,
  TEST_ADMIN_PASSWORD,
} from './support/device-bus.ts';
import { insertDeviceRow } from './support/devices.ts';
import { type MosquittoInstance, mosquittoInstalled, startMosquitto } from './support/mosquitto.ts';
import { refusal } from './support/mqtt.ts';

const STATION = DEFAULT_STATION.id;
const PASSWORD = 'Console-Pass-123';
const installed = mosquittoInstalled({ dynsec: true });

/**
 * Live data in the scale-out profile (docs/scale-out.md): the console gets a broker account per session on
 * an external Mosquitto with dynamic security, reads its station's console topics over the WebSocket
 * listener, and loses them when the session ends.
 */
describe.skipIf(!installed).each(databases)('console accounts on Mosquitto ($kind)', ({ open }) => {
  let database: TestDatabase;
  let mosquitto: MosquittoInstance;
  let system: RunningSystem & { removeDir(): void };
  let fixtures: { unitId: string; typeId: string };
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    database = await open();
    fixtures = await busFixtures(database);
    mosquitto = await startMosquitto({ dynsec: true, persistence: false, webSocket: true });
    const admin = mosquitto.admin!;
    system = await startBusSystem(database, {
      mqttUrl: `mqtt://${admin.username}:${encodeURIComponent(admin.password)}@127.0.0.1:${mosquitto.port}`,
      mqttDeviceAuth: 'dynsec',
    });
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await system?.stop();
    system?.removeDir();
    await mosquitto?.remove();
    await database?.close();
  });

  const request = <E extends Endpoint>(endpoint: E, token: string | null, body?: EndpointBody<E>) =>
    callApi(system.url, endpoint, token, body);

  async function signIn(name: string, password: string): Promise<string> {
    const answer = await request(api.auth.loginCheck, null, { name, pwd: password });
    if (!answer.success) throw new Error(`sign-in of ${name} refused`);
    return answer.data.token;
  }

  async function newStaff(): Promise<string> {
    const name = `ca_${randomBytes(4).toString('hex')}`;
    await database.db.insert(staff).values({
      name,
      passwordHash: await hashPassword(PASSWORD),
      status: 'activated',
      mustChangePassword: false,
    });
    return name;
  }

  async function brokerLogin(token: string): Promise<BrokerLogin> {
    const answer = await request(api.realtime.getBrokerLogin, token);
    if (!answer.success) throw new Error(`brokerLogin refused: ${answer.code}`);
    return answer.data;
  }

  function browserConnect(username: string, token: string): Promise<MqttClient> {
    return connectAsync(mosquitto.wsUrl!, {
      protocolVersion: 4,
      clientId: `console-${randomUUID()}`,
      username,
      password: token,
      reconnectPeriod: 0,
      connectTimeout: 5_000,
    });
  }

  /** A console as the browser runs it: asks for its login, connects, subscribes to its station. */
  async function consoleOf(token: string) {
    const { username } = await brokerLogin(token);
    const client = await browserConnect(username, token);
    clients.push(client);
    const events: ConsoleEvent[] = [];
    client.on('message', (_topic, payload) =>
      events.push(consoleEvent.parse(JSON.parse(payload.toString()))),
    );
    const granted = await client.subscribeAsync(consoleSubscription(STATION), { qos: 0 });
    expect(granted[0]?.qos).toBe(0);
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    return { username, client, events, closed };
  }

  it('gives the session an account of its own and delivers a runtime event when a device reports', async () => {
    const token = await signIn(ADMIN_STAFF_ID, TEST_ADMIN_PASSWORD);
    const browser = await consoleOf(token);
    expect(browser.username).toBe(`web-${createHash('sha256').update(token).digest('hex')}`);
    // Asking again (the next page load, another tab) changes nothing and keeps the connection.
    expect(await brokerLogin(token)).toEqual({ username: browser.username });

    const code = `CA-${randomBytes(3).toString('hex')}`;
    const id = await insertDeviceRow(database.db, { ...fixtures, code });
    const credential = (await system.services.devices.ledger.register(id, SERVER_OPERATOR))!;
    let device: MqttClient | null = null;
    await waitFor(
      async () => {
        device = await mqttClient(mosquitto.url, code, credential.secret, `dev-${code}`).catch(() => null);
        return device !== null;
      },
      10_000,
      'the device account',
    );
    clients.push(device!);
    await device!.publishAsync(
      `dev/${STATION}/${code}/up`,
      encodeNativeReport({ messageId: 'ca-1', lock: 'open', battery: 64 }),
      { qos: 1 },
    );
    await waitFor(
      () => browser.events.some((e) => e.kind === 'runtime' && e.changes.some((c) => c.deviceId === id)),
      10_000,
      'the runtime event',
    );
    expect(browser.client.connected).toBe(true);
  });

  it('disconnects a signed-out session and refuses it afterwards; other sessions keep their data', async () => {
    const name = await newStaff();
    const leaving = await signIn(name, PASSWORD);
    const staying = await signIn(name, PASSWORD);
    const gone = await consoleOf(leaving);
    const kept = await consoleOf(staying);
    expect(gone.username).not.toBe(kept.username);
    const logout = await request(api.auth.logout, leaving);
    expect(logout.success).toBe(true);
    await gone.closed;
    expect(await refusal(browserConnect(gone.username, leaving))).toBe(5);
    expect((await request(api.realtime.getBrokerLogin, leaving)).code).toBe(ResultCode.Unauthenticated);
    expect(kept.client.connected).toBe(true);
    expect(await refusal(browserConnect(kept.username, staying))).toBe('accepted');
  });

  it("ends the other sessions' live data on a password change, and keeps the changing session's", async () => {
    const name = await newStaff();
    const other = await signIn(name, PASSWORD);
    const current = await signIn(name, PASSWORD);
    const otherConsole = await consoleOf(other);
    const currentConsole = await consoleOf(current);
    const changed = await request(api.auth.changePwd, current, {
      oldPwd: PASSWORD,
      newPwd: 'Console-Pass-475',
      confirmPwd: 'Console-Pass-475',
    });
    expect(changed.success).toBe(true);
    await otherConsole.closed;
    expect(await refusal(browserConnect(otherConsole.username, other))).toBe(5);
    expect(currentConsole.client.connected).toBe(true);
  });
});

describe.each(databases)('broker login on the embedded broker ($kind)', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the staff id, which the embedded broker checks against the session token', async () => {
    const token = await t.signIn(ADMIN_NAME, ADMIN_PASSWORD);
    const answer = await t.call(api.realtime.getBrokerLogin, { token });
    expect(answer.body).toMatchObject({ success: true, data: { username: ADMIN_STAFF_ID } });
    const anonymous = await t.call(api.realtime.getBrokerLogin);
    expect(anonymous.body.code).toBe(ResultCode.Unauthenticated);
  });
});
