import { randomBytes, randomUUID } from 'node:crypto';
import {
  ADMIN_STAFF_ID,
  type ConsoleEvent,
  consoleEvent,
  consoleSubscription,
  type DeviceCredential,
  HEART_CHECK,
  NOTIFICATION_SOCKET_PATH,
  Permission,
  type SocketServerMessage,
  socketServerMessage,
  type UserNotification,
  warnRuleForm,
} from '@uiot/contracts';
import { decodeNativeReport, encodeNativeReport } from '@uiot/device-protocol';
import { eq, sql } from 'drizzle-orm';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { rowsOf } from '../src/db/rows.ts';
import { hashPassword } from '../src/lib/password-hash.ts';
import { DEFAULT_STATION } from '../src/lib/station.ts';
import { recordingLogger, waitFor } from '../src/lib/test-support.ts';
import { SERVER_OPERATOR } from '../src/modules/devices/device-operation.ts';
import { sweepOfflineDevices } from '../src/modules/iot/runtime-jobs.ts';
import { staff } from '../src/modules/org/org.schema.ts';
import { param } from '../src/modules/params/params.schema.ts';
import { openNotificationChannel } from '../src/modules/realtime/notification-channel.ts';
import { NotificationHub, type NotificationPeer } from '../src/modules/realtime/notification-hub.ts';
import { SOCKET_CLOSE } from '../src/modules/realtime/notification-socket.ts';
import type { RunningSystem } from '../src/system.ts';
import { giveRole } from './support/app.ts';
import { databases, type TestDatabase } from './support/databases.ts';
import {
  answeringLock as answeringLockOn,
  busFixtures,
  mqttClient,
  startBusSystem,
  TEST_ADMIN_PASSWORD,
} from './support/device-bus.ts';
import { insertDeviceRow } from './support/devices.ts';

const STATION = DEFAULT_STATION.id;
const PASSWORD = 'Realtime-Pass-123';

/** A `/websocket` client that keeps what it receives and how it was closed. */
interface TestSocket {
  ws: WebSocket;
  texts: string[];
  closed: Promise<{ code: number; reason: string }>;
  /** The server messages (JSON) received so far. */
  messages(): SocketServerMessage[];
}

function openSocket(url: string): Promise<TestSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const texts: string[] = [];
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      ws.once('close', (code, reason) => done({ code, reason: reason.toString() })),
    );
    ws.on('message', (data) => texts.push(data.toString()));
    ws.once('error', reject);
    ws.once('open', () =>
      resolve({
        ws,
        texts,
        closed,
        messages: () =>
          texts.filter((t) => t !== HEART_CHECK).map((t) => socketServerMessage.parse(JSON.parse(t))),
      }),
    );
  });
}

/** A console on the broker's WebSocket listener: collects the events of its subscription. */
interface TestConsole {
  client: MqttClient;
  events: Array<{ topic: string; event: ConsoleEvent }>;
}

async function consoleClient(url: string, username: string, password: string): Promise<TestConsole> {
  const client = await connectAsync(url, {
    protocolVersion: 4,
    clientId: `console-${randomUUID()}`,
    username,
    password,
    reconnectPeriod: 0,
    connectTimeout: 5_000,
  });
  const events: TestConsole['events'] = [];
  client.on('message', (topic, payload) => {
    events.push({ topic, event: consoleEvent.parse(JSON.parse(payload.toString())) });
  });
  return { client, events };
}

describe.each(databases)('live channels ($kind)', ({ kind, open }) => {
  let database: TestDatabase;
  let system: (RunningSystem & { removeDir(): void }) | null = null;
  let fixtures: { unitId: string; typeId: string };
  const mqttClients: MqttClient[] = [];
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    database = await open();
    fixtures = await busFixtures(database);
    system = await startBusSystem(database);
  });

  afterAll(async () => {
    for (const s of sockets) s.ws.terminate();
    await Promise.all(mqttClients.map((c) => c.endAsync(true).catch(() => undefined)));
    await system?.stop();
    system?.removeDir();
    await database?.close();
  });

  const socketUrl = (path = NOTIFICATION_SOCKET_PATH) => `${system!.url.replace(/^http/, 'ws')}${path}`;

  async function signIn(name: string, password: string): Promise<string> {
    const response = await fetch(`${system!.url}/api/staff/loginCheck`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, pwd: password }),
    });
    const body = (await response.json()) as { success: boolean; data: { token: string } };
    if (!body.success) throw new Error(`sign-in of ${name} refused`);
    return body.data.token;
  }

  async function newStaff(mustChangePassword = false): Promise<{ id: string; token: string }> {
    const name = `rt_${randomBytes(4).toString('hex')}`;
    const [row] = await database.db
      .insert(staff)
      .values({ name, passwordHash: await hashPassword(PASSWORD), status: 'activated', mustChangePassword })
      .returning({ id: staff.id });
    return { id: row!.id, token: await signIn(name, PASSWORD) };
  }

  async function registeredLock(): Promise<{ id: string; code: string; credential: DeviceCredential }> {
    const code = `R-${randomBytes(3).toString('hex')}`;
    const id = await insertDeviceRow(database.db, { ...fixtures, code, name: `Gate ${code}` });
    const credential = await system!.services.devices.ledger.register(id, SERVER_OPERATOR);
    return { id, code, credential: credential! };
  }

  /** A native lock on the device bus that answers every command with Success. */
  async function answeringLock(lock: { code: string; credential: DeviceCredential }): Promise<MqttClient> {
    const client = await answeringLockOn(system!.deviceBus.mqttUrl, STATION, lock);
    mqttClients.push(client);
    return client;
  }

  async function authenticated(token: string): Promise<TestSocket> {
    const socket = await openSocket(socketUrl());
    sockets.push(socket);
    socket.ws.send(JSON.stringify({ type: 'auth', token }));
    await waitFor(() => socket.texts.length > 0, 5_000, 'ready');
    expect(socket.messages()[0]).toEqual({ type: 'ready' });
    return socket;
  }

  describe('console topics on the broker', () => {
    let adminToken: string;
    let browser: TestConsole;

    beforeAll(async () => {
      adminToken = await signIn(ADMIN_STAFF_ID, TEST_ADMIN_PASSWORD);
      browser = await consoleClient(system!.deviceBus.broker!.wsUrl, ADMIN_STAFF_ID, adminToken);
      mqttClients.push(browser.client);
      const granted = await browser.client.subscribeAsync(consoleSubscription(STATION), { qos: 0 });
      expect(granted[0]?.qos).toBe(0);
    });

    const runtimeChanges = () =>
      browser.events.flatMap((e) => (e.event.kind === 'runtime' ? e.event.changes : []));
    const commandChanges = () =>
      browser.events.flatMap((e) => (e.event.kind === 'command' ? e.event.changes : []));

    it('delivers a runtime event when a device reports: what changed, never props or the raw payload', async () => {
      const lock = await registeredLock();
      const device = await mqttClient(
        system!.deviceBus.mqttUrl,
        lock.code,
        lock.credential.secret,
        `lock-${randomUUID()}`,
      );
      mqttClients.push(device);
      const reportedAt = Date.now();
      await device.publishAsync(
        `dev/${STATION}/${lock.code}/up`,
        encodeNativeReport({
          messageId: 'rt-1',
          reportedAt,
          lock: 'open',
          door: 'closed',
          battery: 77,
          props: { firmware: 'secret-build-7' },
        }),
        { qos: 1 },
      );
      await waitFor(() => runtimeChanges().some((c) => c.deviceId === lock.id), 5_000, 'runtime event');
      const event = browser.events.find(
        (e) => e.event.kind === 'runtime' && e.event.changes.some((c) => c.deviceId === lock.id),
      )!;
      expect(event.topic).toBe(`/UIOT/${STATION}/runtime`);
      const change = runtimeChanges().find((c) => c.deviceId === lock.id)!;
      expect(change).toMatchObject({
        messageId: 'rt-1',
        online: true,
        lockState: 'open',
        doorState: 'closed',
        battery: 77,
        reportTime: new Date(reportedAt).toISOString(),
      });
      expect(Date.parse(change.lastCollectTime!)).toBeGreaterThanOrEqual(reportedAt - 1_000);
      expect(JSON.stringify(browser.events)).not.toContain('secret-build-7');
    });

    it("delivers an alarm event when a warn rule raises one, on the station's alarm topic", async () => {
      // An extension property no other test reports, so the rule raises for this lock only.
      await system!.services.alarms.warnRules.createProperty({
        deviceTypeId: fixtures.typeId,
        code: 'tamperSwitch',
        name: 'Tamper switch',
        origin: 'Extension',
        valueType: 'boolean',
        unit: null,
      });
      await system!.services.alarms.warnRules.create(
        warnRuleForm.parse({
          deviceTypeId: fixtures.typeId,
          name: 'Casing opened',
          formatMsg: '{device}: casing opened',
          ruleType: 'Instant',
          logicType: 'AND',
          severity: 'critical',
          items: [
            {
              propCode: 'tamperSwitch',
              propName: 'Tamper switch',
              propOrigin: 'Extension',
              propVal: 'true',
              valType: 'boolean',
              conditionType: 'Eq',
            },
          ],
        }),
      );
      const lock = await registeredLock();
      const device = await mqttClient(
        system!.deviceBus.mqttUrl,
        lock.code,
        lock.credential.secret,
        `lock-${randomUUID()}`,
      );
      mqttClients.push(device);
      await device.publishAsync(
        `dev/${STATION}/${lock.code}/up`,
        encodeNativeReport({ messageId: 'alarm-1', props: { tamperSwitch: true } }),
        { qos: 1 },
      );
      const alarmChanges = () =>
        browser.events.flatMap((e) => (e.event.kind === 'alarm' ? e.event.changes : []));
      await waitFor(() => alarmChanges().some((c) => c.deviceId === lock.id), 5_000, 'alarm event');
      const event = browser.events.find((e) => e.event.kind === 'alarm')!;
      expect(event.topic).toBe(`/UIOT/${STATION}/alarm`);
      expect(alarmChanges().find((c) => c.deviceId === lock.id)).toMatchObject({
        deviceName: `Gate ${lock.code}`,
        ruleName: 'Casing opened',
        content: `Gate ${lock.code}: casing opened`,
        severity: 'critical',
        state: 'Warn',
        // The rule names no recipients: nobody was told.
        sendCount: 0,
      });
    });

    it('publishes nothing for a late report that changes nothing stored', async () => {
      const lock = await registeredLock();
      const submit = (messageId: string, receivedAt: number, battery: number) => {
        const raw = encodeNativeReport({ messageId, battery });
        const decoded = decodeNativeReport(raw);
        if (!decoded.ok) throw new Error('test report does not decode');
        return system!.services.iot.ingest.submit({
          protocol: 'mqtt',
          address: { by: 'code', stationId: STATION, code: lock.code },
          message: decoded.value,
          raw,
          receivedAt,
        });
      };
      // What each committed batch changed of this lock (the publisher may merge changes within a window).
      const committed: string[] = [];
      const unlisten = system!.services.events.subscribe('report.stored', 'test', (commit) => {
        for (const change of commit.runtime) {
          if (change.deviceId === lock.id) committed.push(change.lastMessageId);
        }
      });
      const now = Date.now();
      expect(await submit('late-1', now, 60)).toBe('stored');
      expect(await submit('late-0', now - 60_000, 10)).toBe('stored');
      expect(await submit('late-2', now + 1, 61)).toBe('stored');
      unlisten();
      expect(committed).toEqual(['late-1', 'late-2']);
      await waitFor(
        () => runtimeChanges().some((c) => c.messageId === 'late-2'),
        5_000,
        'the report after the late one',
      );
      const mine = runtimeChanges().filter((c) => c.deviceId === lock.id);
      expect(mine.map((c) => c.messageId)).not.toContain('late-0');
      expect(mine.map((c) => c.battery)).not.toContain(10);
      expect(mine.at(-1)).toMatchObject({ messageId: 'late-2', battery: 61 });
    });

    it('delivers a runtime event with online false when the sweep finds a device silent', async () => {
      const lock = await registeredLock();
      await database.db.execute(sql`
        insert into device_runtime (device_id, online, last_collect_time, updated_at)
        values (${lock.id}, true, now() - interval '2 hours', now())`);
      const offline = await sweepOfflineDevices(database.db, new Date());
      expect(offline.find((d) => d.deviceId === lock.id)).toMatchObject({ stationId: STATION });
      system!.realtime.consoleEvents.devicesOffline(offline);
      await waitFor(
        () => runtimeChanges().some((c) => c.deviceId === lock.id && !c.online),
        5_000,
        'offline event',
      );
      // The console counts "offline for" from when the sweep marked it, as the server does.
      const since = offline.find((d) => d.deviceId === lock.id)?.offlineSince;
      expect(runtimeChanges().find((c) => c.deviceId === lock.id)).toMatchObject({
        messageId: null,
        online: false,
        offlineSince: since?.toISOString(),
      });
      expect(since).toBeInstanceOf(Date);
    });

    it('delivers command events as a command is issued, sent and answered; parameters never travel', async () => {
      const lock = await registeredLock();
      await answeringLock(lock);
      const issued = await system!.services.commands.issue({
        deviceId: lock.id,
        cmdCode: 'setPassword',
        name: 'Permanent password',
        params: { password: '864213' },
        expireSeconds: 60,
        maxRetransmit: 1,
        staff: { id: ADMIN_STAFF_ID, name: 'Administrator' },
      });
      await waitFor(
        () => commandChanges().some((c) => c.id === issued.id && c.state === 'Success'),
        10_000,
        'command Success event',
      );
      const seen = commandChanges().filter((c) => c.id === issued.id);
      expect(seen[0]).toMatchObject({
        state: 'Waitting',
        attempts: 0,
        sendFlag: false,
        cmdCode: 'setPassword',
      });
      expect(seen.some((c) => c.attempts === 1 && c.sendFlag)).toBe(true);
      expect(seen.at(-1)).toMatchObject({ state: 'Success', deviceId: lock.id, name: 'Permanent password' });
      expect(browser.events.find((e) => e.event.kind === 'command')?.topic).toBe(`/UIOT/${STATION}/command`);
      expect(JSON.stringify(browser.events)).not.toContain('864213');
    });

    it('refuses subscriptions to another station’s topics and to device topics', async () => {
      const other = await consoleClient(system!.deviceBus.broker!.wsUrl, ADMIN_STAFF_ID, adminToken);
      mqttClients.push(other.client);
      await expect(
        other.client.subscribeAsync(consoleSubscription('another-station'), { qos: 0 }),
      ).rejects.toThrow(/Subscribe error/);
      await expect(other.client.subscribeAsync('dev/#', { qos: 0 })).rejects.toThrow(/Subscribe error/);
      await expect(other.client.subscribeAsync(`dev/${STATION}/+/up`, { qos: 0 })).rejects.toThrow(
        /Subscribe error/,
      );
    });

    it('closes a console that publishes, and delivers nothing of it', async () => {
      const before = browser.events.length;
      const intruder = await consoleClient(system!.deviceBus.broker!.wsUrl, ADMIN_STAFF_ID, adminToken);
      mqttClients.push(intruder.client);
      const closed = new Promise<void>((resolve) => intruder.client.once('close', () => resolve()));
      intruder.client.publish(`/UIOT/${STATION}/runtime`, JSON.stringify({ kind: 'runtime', changes: [] }));
      await closed;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(browser.events.length).toBe(before);
    });

    it('refuses a wrong token, and a token presented under another staff id', async () => {
      const url = system!.deviceBus.broker!.wsUrl;
      await expect(consoleClient(url, ADMIN_STAFF_ID, 'not-a-session-token')).rejects.toThrow(
        /Bad username or password|Not authorized/,
      );
      const user = await newStaff();
      await expect(consoleClient(url, ADMIN_STAFF_ID, user.token)).rejects.toThrow(
        /Bad username or password|Not authorized/,
      );
    });
  });

  describe('/websocket notifications', () => {
    it('answers heartCheck once authenticated', async () => {
      const user = await newStaff();
      const socket = await authenticated(user.token);
      socket.ws.send(HEART_CHECK);
      await waitFor(() => socket.texts.includes(HEART_CHECK), 5_000, 'heartCheck answer');
      expect(socket.texts).toEqual([JSON.stringify({ type: 'ready' }), HEART_CHECK]);
    });

    it('closes a connection that never authenticates', async () => {
      const socket = await openSocket(socketUrl());
      sockets.push(socket);
      const started = Date.now();
      expect(await socket.closed).toMatchObject({ code: SOCKET_CLOSE.timeout });
      expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
      expect(socket.texts).toEqual([]);
    }, 15_000);

    it('takes no token from the URL: the first message must be the auth message', async () => {
      const user = await newStaff();
      const socket = await openSocket(`${socketUrl()}?token=${encodeURIComponent(user.token)}`);
      sockets.push(socket);
      socket.ws.send(HEART_CHECK);
      expect(await socket.closed).toMatchObject({ code: SOCKET_CLOSE.unauthorized });
      expect(socket.texts).toEqual([]);
    });

    it('refuses a bad token and a user held at the forced password change', async () => {
      const bad = await openSocket(socketUrl());
      sockets.push(bad);
      bad.ws.send(JSON.stringify({ type: 'auth', token: 'not-a-session-token' }));
      expect(await bad.closed).toMatchObject({ code: SOCKET_CLOSE.unauthorized });
      expect(bad.texts).toEqual([]);

      await database.db.update(param).set({ val: 'true' }).where(eq(param.name, 'ChangePwdByFirstLogin'));
      try {
        const held = await newStaff(true);
        const socket = await openSocket(socketUrl());
        sockets.push(socket);
        socket.ws.send(JSON.stringify({ type: 'auth', token: held.token }));
        expect(await socket.closed).toMatchObject({ code: SOCKET_CLOSE.unauthorized });
      } finally {
        await database.db.update(param).set({ val: 'false' }).where(eq(param.name, 'ChangePwdByFirstLogin'));
      }
    });

    it('refuses other upgrade paths', async () => {
      await expect(openSocket(socketUrl('/mqtt'))).rejects.toThrow(/404/);
      await expect(openSocket(socketUrl('/websocket/x'))).rejects.toThrow(/404/);
    });

    it('delivers commandFinished to the user who issued the command, and not to another user', async () => {
      const issuer = await newStaff();
      // A notification of a finished command reaches a session that reads commands (finding 6).
      await giveRole(database.db, issuer.id, [Permission.DeviceCommandRead]);
      const bystander = await newStaff();
      await giveRole(database.db, bystander.id, [Permission.DeviceCommandRead]);
      const mine = await authenticated(issuer.token);
      const theirs = await authenticated(bystander.token);
      const lock = await registeredLock();
      await answeringLock(lock);
      const issued = await system!.services.commands.issue({
        deviceId: lock.id,
        cmdCode: 'open',
        name: 'Open',
        expireSeconds: 60,
        maxRetransmit: 1,
        staff: { id: issuer.id, name: 'Issuer' },
      });
      await waitFor(() => mine.messages().some((m) => m.type === 'notification'), 10_000, 'notification');
      const [notice] = mine.messages().filter((m) => m.type === 'notification');
      expect(notice).toMatchObject({
        type: 'notification',
        notification: {
          kind: 'commandFinished',
          commandId: issued.id,
          deviceId: lock.id,
          deviceName: `Gate ${lock.code}`,
          name: 'Open',
          state: 'Success',
          failure: null,
        },
      });
      expect(Date.parse((notice as { time: string }).time)).not.toBeNaN();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(mine.messages().filter((m) => m.type === 'notification')).toHaveLength(1);
      expect(theirs.messages()).toEqual([{ type: 'ready' }]);
    });

    it('closes the connection when its user signs out, and keeps the user’s other sessions', async () => {
      const name = `rt_${randomBytes(4).toString('hex')}`;
      await database.db.insert(staff).values({
        name,
        passwordHash: await hashPassword(PASSWORD),
        status: 'activated',
        mustChangePassword: false,
      });
      const first = await signIn(name, PASSWORD);
      const second = await signIn(name, PASSWORD);
      const leaving = await authenticated(first);
      const staying = await authenticated(second);
      const response = await fetch(`${system!.url}/api/staff/logout`, {
        headers: { authorization: `Bearer ${first}` },
      });
      expect(response.status).toBe(200);
      expect(await leaving.closed).toMatchObject({ code: SOCKET_CLOSE.unauthorized });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(staying.ws.readyState).toBe(WebSocket.OPEN);
    });

    it.runIf(kind === 'postgres')(
      'reaches a user’s connection held by another server instance (LISTEN/NOTIFY)',
      async () => {
        const log = recordingLogger();
        const user = await newStaff();
        const [session] = rowsOf<{ token_hash: string }>(
          await database.db.execute(sql`select token_hash from session where staff_id = ${user.id} limit 1`),
        );
        let live = true;
        const elsewhere = new NotificationHub({
          channel: await openNotificationChannel(database, log.logger),
          sessionStands: async () => live,
          permissionsOf: async () => (live ? new Set([Permission.DeviceCommandRead]) : null),
          logger: log.logger,
        });
        try {
          const received: SocketServerMessage[] = [];
          let ended = false;
          const peer: NotificationPeer = {
            staffId: user.id,
            tokenHash: session!.token_hash,
            send: (m) => received.push(m),
            sessionEnded: () => {
              ended = true;
            },
            displaced: () => {},
          };
          elsewhere.add(peer);
          const notification: UserNotification = {
            kind: 'commandFinished',
            commandId: 'c-remote',
            deviceId: 'd-remote',
            deviceName: null,
            name: 'Open',
            state: 'NB_Timeout',
            failure: { code: 1118, params: {} },
          };
          await system!.realtime.notifications.notify(user.id, notification);
          await waitFor(() => received.length > 0, 5_000, 'notification on the other instance');
          expect(received).toEqual([{ type: 'notification', time: expect.any(String), notification }]);

          live = false;
          await system!.realtime.notifications.sessionsEnded(user.id);
          await waitFor(() => ended, 5_000, 'session end on the other instance');
        } finally {
          await elsewhere.close();
        }
      },
    );
  });
});
