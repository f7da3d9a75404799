import { randomBytes, randomUUID } from 'node:crypto';
import {
  ADMIN_STAFF_ID,
  api,
  type ConsoleEvent,
  consoleEvent,
  consoleEventTopic,
  consoleSubscription,
  type DeviceCredential,
  type Endpoint,
  type EndpointBody,
  HEART_CHECK,
  NOTIFICATION_SOCKET_PATH,
  Permission,
  type PermissionKey,
  socketServerMessage,
} from '@uiot/contracts';
import { decodeNativeReport, encodeNativeReport } from '@uiot/device-protocol';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { hashPassword } from '../src/lib/password-hash.ts';
import { DEFAULT_STATION } from '../src/lib/station.ts';
import { waitFor } from '../src/lib/test-support.ts';
import { SERVER_OPERATOR } from '../src/modules/devices/device-operation.ts';
import { staff } from '../src/modules/org/org.schema.ts';
import type { RunningSystem } from '../src/system.ts';
import { boardCodeOf } from './support/alarm-board.ts';
import { giveRole } from './support/app.ts';
import { databases, type TestDatabase } from './support/databases.ts';
import {
  answeringLock,
  busFixtures,
  CHIRPSTACK_PASSWORD,
  callApi,
  mqttClient,
  startBusSystem,
  TEST_ADMIN_PASSWORD,
} from './support/device-bus.ts';
import { insertDeviceRow } from './support/devices.ts';
import { mosquittoInstalled, startMosquitto } from './support/mosquitto.ts';
import { refusal } from './support/mqtt.ts';

const STATION = DEFAULT_STATION.id;
const PASSWORD = 'Live-Data-Pass-123';
/** Long enough for an event the broker would deliver to arrive, once a later one has arrived elsewhere. */
const SILENCE_MS = 300;

/** A browser's connection on the broker's WebSocket listener, subscribed as the console subscribes. */
interface TestConsole {
  client: MqttClient;
  events: ConsoleEvent[];
  closed: Promise<void>;
  kinds(): string[];
}

async function consoleOn(url: string, username: string, token: string): Promise<TestConsole> {
  const client = await connectAsync(url, {
    protocolVersion: 4,
    clientId: `console-${randomUUID()}`,
    username,
    password: token,
    reconnectPeriod: 0,
    connectTimeout: 5_000,
  });
  const events: ConsoleEvent[] = [];
  client.on('message', (_topic, payload) => events.push(consoleEvent.parse(JSON.parse(payload.toString()))));
  const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
  // Every session may subscribe to its station: what it receives is what its permissions read.
  const granted = await client.subscribeAsync(consoleSubscription(STATION), { qos: 0 });
  expect(granted[0]?.qos).toBe(0);
  return { client, events, closed, kinds: () => [...new Set(events.map((e) => e.kind))].sort() };
}

/**
 * A running system with staff, devices and a way to make one event of each kind; `brokerLogin` tells
 * how a browser signs in to its broker (the staff id on the embedded one, an account on Mosquitto).
 */
function liveDataSystem(open: () => Promise<TestDatabase>, mosquittoWsUrl?: () => string) {
  const state = {} as {
    database: TestDatabase;
    system: RunningSystem & { removeDir(): void };
    fixtures: { unitId: string; typeId: string };
  };
  const clients: MqttClient[] = [];
  const sockets: WebSocket[] = [];

  const request = <E extends Endpoint>(
    endpoint: E,
    token: string | null,
    body?: EndpointBody<E>,
    query?: Record<string, string>,
  ) => callApi(state.system.url, endpoint, token, body, query);

  const signIn = async (name: string, password: string): Promise<string> => {
    const answer = await request(api.auth.loginCheck, null, { name, pwd: password });
    if (!answer.success) throw new Error(`sign-in of ${name} refused`);
    return answer.data.token;
  };

  /** A signed-in staff member holding these keys through a role of its own (none: no role at all). */
  const user = async (permissions: PermissionKey[] | null) => {
    const name = `live_${randomBytes(4).toString('hex')}`;
    const [row] = await state.database.db
      .insert(staff)
      .values({
        name,
        passwordHash: await hashPassword(PASSWORD),
        status: 'activated',
        mustChangePassword: false,
      })
      .returning({ id: staff.id });
    const roleId = permissions ? await giveRole(state.database.db, row!.id, permissions) : null;
    return { id: row!.id, name, roleId, token: await signIn(name, PASSWORD) };
  };

  /** Connects a console of this session to its broker, as the browser does. */
  const consoleOf = async (session: { id: string; token: string }): Promise<TestConsole> => {
    const login = await request(api.realtime.getBrokerLogin, session.token);
    if (!login.success) throw new Error(`brokerLogin refused: ${login.code}`);
    const url = mosquittoWsUrl?.() ?? state.system.deviceBus.broker!.wsUrl;
    const console = await consoleOn(url, login.data.username, session.token);
    clients.push(console.client);
    return console;
  };

  const registeredLock = async (): Promise<{ id: string; code: string; credential: DeviceCredential }> => {
    const code = `LD-${randomBytes(3).toString('hex')}`;
    const id = await insertDeviceRow(state.database.db, { ...state.fixtures, code, name: `Gate ${code}` });
    const credential = await state.system.services.devices.ledger.register(id, SERVER_OPERATOR);
    return { id, code, credential: credential! };
  };

  /** A runtime event (a stored report) of the lock. */
  const report = async (lock: { code: string }, messageId: string) => {
    const raw = encodeNativeReport({ messageId, battery: 50 });
    const decoded = decodeNativeReport(raw);
    if (!decoded.ok) throw new Error('test report does not decode');
    await state.system.services.iot.ingest.submit({
      protocol: 'mqtt',
      address: { by: 'code', stationId: STATION, code: lock.code },
      message: decoded.value,
      raw,
      receivedAt: Date.now(),
    });
  };

  /** A command event (a command issued to the lock), by this staff member. */
  const command = (lock: { id: string }, by: { id: string } = { id: ADMIN_STAFF_ID }) =>
    state.system.services.commands.issue({
      deviceId: lock.id,
      cmdCode: 'open',
      name: 'Open',
      expireSeconds: 60,
      maxRetransmit: 1,
      staff: { id: by.id, name: 'Tester' },
    });

  /** Makes one event of each kind and waits until a console that reads every kind has both. */
  const eachKind = async (lock: { id: string; code: string }, witness: TestConsole) => {
    const marker = `m-${randomUUID()}`;
    await report(lock, marker);
    const issued = await command(lock);
    await waitFor(
      () =>
        witness.events.some((e) => e.kind === 'runtime' && e.changes.some((c) => c.messageId === marker)) &&
        witness.events.some((e) => e.kind === 'command' && e.changes.some((c) => c.id === issued.id)),
      10_000,
      'an event of each kind',
    );
    await new Promise((resolve) => setTimeout(resolve, SILENCE_MS));
  };

  /** `/websocket` of a session: the notifications it receives. */
  const notificationSocket = async (token: string) => {
    const ws = new WebSocket(`${state.system.url.replace(/^http/, 'ws')}${NOTIFICATION_SOCKET_PATH}`);
    sockets.push(ws);
    const texts: string[] = [];
    ws.on('message', (data) => texts.push(data.toString()));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(JSON.stringify({ type: 'auth', token }));
    await waitFor(() => texts.length > 0, 5_000, 'ready');
    return () =>
      texts
        .filter((t) => t !== HEART_CHECK)
        .map((t) => socketServerMessage.parse(JSON.parse(t)))
        .filter((m) => m.type === 'notification');
  };

  const start = async (overrides: Parameters<typeof startBusSystem>[1] = {}) => {
    state.database = await open();
    state.fixtures = await busFixtures(state.database);
    state.system = await startBusSystem(state.database, overrides);
  };

  const stop = async () => {
    for (const ws of sockets) ws.terminate();
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await state.system?.stop();
    state.system?.removeDir();
    await state.database?.close();
  };

  /** A console of the administrator, who reads every kind: the witness that events were published. */
  const adminConsole = async () =>
    consoleOf({ id: ADMIN_STAFF_ID, token: await signIn(ADMIN_STAFF_ID, TEST_ADMIN_PASSWORD) });

  /** Consoles of a user with no role, one with monitor.read only and one with deviceCommand.read only. */
  const expectKindsByPermission = async (): Promise<TestConsole> => {
    const lock = await registeredLock();
    const admin = await adminConsole();
    const nobody = await consoleOf(await user(null));
    const monitor = await consoleOf(await user([Permission.MonitorRead]));
    const commands = await consoleOf(await user([Permission.DeviceCommandRead]));
    await eachKind(lock, admin);
    expect(admin.kinds()).toEqual(['command', 'runtime']);
    expect(monitor.kinds()).toEqual(['runtime']);
    expect(commands.kinds()).toEqual(['command']);
    expect(nobody.events).toEqual([]);
    expect(nobody.client.connected).toBe(true);
    return nobody;
  };

  /**
   * A connected console whose role loses monitor.read through the API. `applied` waits until the broker
   * has applied the change and answers the console that reads from then on.
   */
  const losingMonitorRead = async (
    applied: (before: TestConsole, watcher: { id: string; token: string }) => Promise<TestConsole>,
  ): Promise<TestConsole> => {
    const lock = await registeredLock();
    const admin = await adminConsole();
    const watcher = await user([Permission.MonitorRead, Permission.DeviceCommandRead]);
    const before = await consoleOf(watcher);
    await eachKind(lock, admin);
    expect(before.kinds()).toEqual(['command', 'runtime']);
    const saved = await request(
      api.permission.saveGrants,
      await signIn(ADMIN_STAFF_ID, TEST_ADMIN_PASSWORD),
      {
        subjectType: 'Role',
        subjectId: watcher.roleId!,
        keys: [Permission.DeviceCommandRead],
      },
    );
    expect(saved.success).toBe(true);
    const after = await applied(before, watcher);
    after.events.length = 0;
    await eachKind(lock, admin);
    expect(after.kinds()).toEqual(['command']);
    return after;
  };

  /**
   * A control-room board as its page runs it (exchange, broker login, connection on the WebSocket
   * listener): it may subscribe to its station's alarm topic and nothing else, receives alarms and no other
   * kind, and is disconnected and refused (`revokedCode`) once its link is revoked. `refused` checks the
   * sign-ins the broker must refuse besides.
   */
  const boardReadsAlarmsOnly = async (options: {
    refused?: (board: { username: string; token: string }) => Promise<void>;
    revokedCode: number;
  }) => {
    const { system } = state;
    const admin = await signIn(ADMIN_STAFF_ID, TEST_ADMIN_PASSWORD);
    const link = await request(api.alarmBoard.save, admin, { name: 'Wall', stationId: STATION });
    expect(link.success).toBe(true);
    const session = await request(api.alarmBoard.exchange, null, { code: boardCodeOf(link.data.path) });
    const token = session.data.token;
    const login = await request(api.alarmBoard.brokerLogin, token);
    expect(login.success).toBe(true);
    const { username } = login.data;
    // Another display of the same link is another session, signing in with a username of its own.
    const second = await request(api.alarmBoard.exchange, null, {
      code: boardCodeOf(
        (await request(api.alarmBoard.newCode, admin, undefined, { id: link.data.id })).data.path,
      ),
    });
    const secondLogin = await request(api.alarmBoard.brokerLogin, second.data.token);
    expect(secondLogin.data.username).not.toBe(username);
    await options.refused?.({ username, token });

    const wsUrl = mosquittoWsUrl?.() ?? system.deviceBus.broker!.wsUrl;
    const connect = (as: string, password: string) =>
      connectAsync(wsUrl, {
        protocolVersion: 4,
        clientId: `board-${randomUUID()}`,
        username: as,
        password,
        reconnectPeriod: 0,
        connectTimeout: 5_000,
      });
    const board = await connect(username, token);
    const other = await connect(secondLogin.data.username, second.data.token);
    clients.push(board, other);
    const received: ConsoleEvent[] = [];
    board.on('message', (_topic, payload) =>
      received.push(consoleEvent.parse(JSON.parse(payload.toString()))),
    );
    const closed = new Promise<void>((resolve) => board.once('close', () => resolve()));
    const otherClosed = new Promise<void>((resolve) => other.once('close', () => resolve()));
    expect((await board.subscribeAsync(consoleEventTopic(STATION, 'alarm'), { qos: 0 }))[0]?.qos).toBe(0);
    await expect(board.subscribeAsync(consoleEventTopic(STATION, 'runtime'), { qos: 0 })).rejects.toThrow(
      /Subscribe error/,
    );
    await expect(board.subscribeAsync('/UIOT/OTHER-STATION/alarm', { qos: 0 })).rejects.toThrow(
      /Subscribe error/,
    );
    // Runtime and command events of its station do not reach it, although it subscribes to every kind.
    await board.subscribeAsync(consoleSubscription(STATION), { qos: 0 });
    await eachKind(await registeredLock(), await adminConsole());
    expect(received).toEqual([]);
    // An alarm of its station does.
    const alarmId = randomUUID();
    system.realtime.consoleEvents.alarmsChanged({
      alarms: [
        {
          stationId: STATION,
          change: {
            id: alarmId,
            deviceId: randomUUID(),
            deviceName: 'Gate',
            ruleName: 'Door open',
            content: 'Door open',
            severity: 'major',
            state: 'Warn',
            warnTime: new Date().toISOString(),
            resetTime: null,
            ackTime: null,
            sendCount: 1,
          },
        },
      ],
    });
    await waitFor(
      () => received.some((e) => e.kind === 'alarm' && e.changes.some((c) => c.id === alarmId)),
      10_000,
      'the alarm on the board',
    );

    const revoked = await request(api.alarmBoard.revoke, admin, undefined, { id: link.data.id });
    expect(revoked.success).toBe(true);
    await Promise.all([closed, otherClosed]);
    expect(await refusal(mqttClient(wsUrl, username, token, `probe-${randomUUID()}`))).toBe(
      options.revokedCode,
    );
  };

  return {
    state,
    clients,
    boardReadsAlarmsOnly,
    expectKindsByPermission,
    losingMonitorRead,
    api,
    signIn,
    user,
    consoleOf,
    registeredLock,
    command,
    eachKind,
    adminConsole,
    notificationSocket,
    start,
    stop,
  };
}

describe.each(databases)('live data on the embedded broker ($kind)', ({ open }) => {
  const t = liveDataSystem(open);

  beforeAll(() => t.start());
  afterAll(() => t.stop());

  describe('finding 5: a session token does not sign in on the devices’ TCP listener', () => {
    it('refuses a browser session on the TCP listener, devices and ChirpStack on the WebSocket one', async () => {
      const session = await t.user([Permission.MonitorRead]);
      const broker = t.state.system.deviceBus.broker!;
      const lock = await t.registeredLock();
      const tcp = (username: string, password: string) =>
        refusal(mqttClient(broker.url, username, password, `probe-${randomUUID()}`));
      const ws = (username: string, password: string) =>
        refusal(mqttClient(broker.wsUrl, username, password, `probe-${randomUUID()}`));

      // What the finding did: `mosquitto_sub -p 1883 -u <staffId> -P <token>`.
      expect(await tcp(session.id, session.token)).toBe(4);
      const admin = await t.signIn(ADMIN_STAFF_ID, TEST_ADMIN_PASSWORD);
      expect(await tcp(ADMIN_STAFF_ID, admin)).toBe(4);
      // The converse: a device credential and the ChirpStack integration's on the browsers' listener.
      expect(await ws(lock.code, lock.credential.secret)).toBe(4);
      expect(await ws('chirpstack', CHIRPSTACK_PASSWORD)).toBe(4);
      // Each on its own listener is admitted.
      expect(await ws(session.id, session.token)).toBe('accepted');
      expect(await tcp(lock.code, lock.credential.secret)).toBe('accepted');
      expect(await tcp('chirpstack', CHIRPSTACK_PASSWORD)).toBe('accepted');
    });
  });

  describe('finding 6: live data only for the permission that reads it', () => {
    it('delivers runtime to monitor.read, commands to deviceCommand.read, and nothing to a user with no role', async () => {
      const nobody = await t.expectKindsByPermission();
      await expect(nobody.client.subscribeAsync(`/UIOT/${STATION}/runtime`, { qos: 0 })).rejects.toThrow(
        /Subscribe error/,
      );
    });

    it('stops runtime events at once when the role loses monitor.read while connected', async () => {
      const after = await t.losingMonitorRead(async (before) => {
        // The broker applies the change as soon as the server has heard it: the kind is refused from then on.
        await waitFor(
          () =>
            before.client.subscribeAsync(`/UIOT/${STATION}/runtime`, { qos: 0 }).then(
              () => false,
              () => true,
            ),
          5_000,
          'runtime to be refused',
        );
        return before;
      });
      expect(after.client.connected).toBe(true);
    });

    it('sends commandFinished on /websocket only to a session that reads commands', async () => {
      const lock = await t.registeredLock();
      t.clients.push(await answeringLock(t.state.system.deviceBus.mqttUrl, STATION, lock));
      const sender = await t.user([Permission.DeviceCommandSend]);
      const reader = await t.user([Permission.DeviceCommandSend, Permission.DeviceCommandRead]);
      const senderNotes = await t.notificationSocket(sender.token);
      const readerNotes = await t.notificationSocket(reader.token);
      const finished = new Set<string>();
      const unlisten = t.state.system.services.events.subscribe('command.changed', 'test', (updates) => {
        for (const update of updates) if (update.finished) finished.add(update.command.id);
      });
      try {
        const sent = await t.command(lock, sender);
        const issued = await t.command(lock, reader);
        await waitFor(
          () => finished.has(sent.id) && finished.has(issued.id),
          10_000,
          'the commands to finish',
        );
        await waitFor(() => readerNotes().length > 0, 10_000, "the reader's notification");
        expect(readerNotes()[0]).toMatchObject({
          notification: { kind: 'commandFinished', commandId: issued.id, state: 'Success' },
        });
        await new Promise((resolve) => setTimeout(resolve, SILENCE_MS));
        expect(senderNotes()).toEqual([]);
      } finally {
        unlisten();
      }
    });
  });

  describe('the control-room board (docs/alarms.md)', () => {
    it("reads its station's alarm topic only, and is disconnected at once when its link is revoked", async () => {
      const { system } = t.state;
      await t.boardReadsAlarmsOnly({
        // Its username with its token, over WebSocket only; not as a staff member, not with another name.
        refused: async ({ username, token }) => {
          const { wsUrl, url } = system.deviceBus.broker!;
          expect(await refusal(mqttClient(url, username, token, `probe-${randomUUID()}`))).toBe(4);
          expect(await refusal(mqttClient(wsUrl, ADMIN_STAFF_ID, token, `probe-${randomUUID()}`))).toBe(4);
          expect(await refusal(mqttClient(wsUrl, 'board-other', token, `probe-${randomUUID()}`))).toBe(4);
        },
        revokedCode: 4,
      });
    });
  });
});

const dynsec = mosquittoInstalled({ dynsec: true });

describe.skipIf(!dynsec).each(databases)(
  'finding 6: live data on Mosquitto dynamic security ($kind)',
  ({ open }) => {
    let wsUrl = '';
    const t = liveDataSystem(open, () => wsUrl);
    let removeMosquitto: (() => Promise<void>) | null = null;

    beforeAll(async () => {
      const mosquitto = await startMosquitto({ dynsec: true, persistence: false, webSocket: true });
      removeMosquitto = () => mosquitto.remove();
      wsUrl = mosquitto.wsUrl!;
      const admin = mosquitto.admin!;
      await t.start({
        mqttUrl: `mqtt://${admin.username}:${encodeURIComponent(admin.password)}@127.0.0.1:${mosquitto.port}`,
        mqttDeviceAuth: 'dynsec',
      });
    });
    afterAll(async () => {
      await t.stop();
      await removeMosquitto?.();
    });

    it('delivers runtime to monitor.read, commands to deviceCommand.read, and nothing to a user with no role', async () => {
      await t.expectKindsByPermission();
    });

    it("gives each board display an account reading its station's alarms, removed when its link is revoked", async () => {
      await t.boardReadsAlarmsOnly({ revokedCode: 5 });
    });

    it('stops runtime events when the role loses monitor.read while connected: the account changes', async () => {
      await t.losingMonitorRead(async (before, watcher) => {
        // Mosquitto disconnects an account whose roles change, at once; the console signs in again as after
        // any disconnection (same username and token) and reads what it reads now.
        await before.closed;
        return t.consoleOf(watcher);
      });
    });
  },
);
