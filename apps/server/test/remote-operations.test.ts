import { randomBytes, randomUUID } from 'node:crypto';
import {
  api,
  type ConsoleEvent,
  consoleEvent,
  consoleSubscription,
  type Endpoint,
  type EndpointResult,
  type OperationRecordRow,
  Permission,
  ResultCode,
  translateResult,
} from '@uiot/contracts';
import { encodeNativeReport } from '@uiot/device-protocol';
import type { Fleet } from '@uiot/simulator';
import { eq } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STATION } from '../src/lib/station.ts';
import { releasable, waitFor } from '../src/lib/test-support.ts';
import { deviceAlarm } from '../src/modules/alarms/alarms.schema.ts';
import { deviceCommand } from '../src/modules/commands/commands.schema.ts';
import { SERVER_OPERATOR } from '../src/modules/devices/device-operation.ts';
import { device } from '../src/modules/devices/devices.schema.ts';
import { deviceRuntime } from '../src/modules/iot/iot.schema.ts';
import {
  fixedAuthorization,
  fixedAuthorizationDevice,
  lockTask,
  lockTaskItem,
  lockTaskOperator,
  operationRecord,
} from '../src/modules/tasks/tasks.schema.ts';
import type { RunningSystem } from '../src/system.ts';
import {
  type CallResult,
  callEndpoint,
  type EndpointCallOptions,
  eventually,
  type TestApp,
  type TestStaff,
  uniqueName,
  urlOf,
} from './support/app.ts';
import { databases, type TestDatabase } from './support/databases.ts';
import { busSuite, mqttClient, simulatedLock as simulatedLockOf } from './support/device-bus.ts';
import { insertDeviceRow } from './support/devices.ts';
import { expectCode, expectOk } from './support/org.ts';

const STATION = DEFAULT_STATION.id;
const HOUR = 3_600_000;

/**
 * Remote opening and closing of IoT locks (`/api/device/remoteOpen`, `remoteClose`) on the whole server: the
 * "who may open" decision on the stored tasks and authorisations, the record of every attempt, the command
 * to a simulated lock that obeys, the record completed by its answer and pushed live on
 * `/UIOT/{stationId}/operation`.
 */
describe.each(databases)('remote operations ($kind)', ({ open }) => {
  const bus = busSuite(open, { commandRetransmitSeconds: 1 });
  let database: TestDatabase;
  let system: RunningSystem & { removeDir(): void };
  let t: TestApp;
  let fixtures: { unitId: string; typeId: string };
  let opener: TestStaff;
  let token: string;
  const fleets: Fleet[] = bus.fleets;
  const clients: MqttClient[] = bus.clients;

  beforeAll(async () => {
    ({ database, system, t, fixtures } = bus);
    opener = await t.createStaff({
      permissions: [Permission.DeviceOpen, Permission.OperationRecordRead, Permission.OperationRecordExport],
      deviceTypes: [fixtures.typeId],
    });
    token = await t.signIn(opener.name, opener.password);
  });

  const call = <E extends Endpoint>(
    endpoint: E,
    input: EndpointCallOptions<E> & { as?: string } = {},
  ): Promise<CallResult<EndpointResult<E>>> =>
    callEndpoint(system!.app, endpoint, { ...input, token: input.as ?? token });
  const remoteOpen = (deviceId: string, as?: string) =>
    call(api.operationRecord.remoteOpen, { payload: { deviceId }, ...(as ? { as } : {}) });
  const remoteClose = (deviceId: string, as?: string) =>
    call(api.operationRecord.remoteClose, { payload: { deviceId }, ...(as ? { as } : {}) });

  const recordsOf = (deviceId: string) =>
    database.db.select().from(operationRecord).where(eq(operationRecord.deviceId, deviceId));
  async function recordBecomes(id: string, result: OperationRecordRow['result']) {
    await waitFor(
      async () => {
        const [row] = await database.db.select().from(operationRecord).where(eq(operationRecord.id, id));
        return row?.result === result;
      },
      10_000,
      `record ${result}`,
    );
  }

  /** A registered IoT lock in the ledger, with the secret a simulated lock connects with. */
  async function lockInLedger(values: { regist?: boolean; typeId?: string } = {}) {
    const code = `R-${randomBytes(3).toString('hex')}`;
    const id = await insertDeviceRow(database.db, {
      ...fixtures,
      ...(values.typeId ? { typeId: values.typeId } : {}),
      code,
      name: uniqueName('Cable room door'),
    });
    const credential =
      values.regist === false ? null : await system!.services.devices.ledger.register(id, SERVER_OPERATOR);
    return { id, code, secret: credential?.secret ?? null };
  }

  const simulatedLock = (lock: { code: string; secret: string | null }) =>
    simulatedLockOf(system!.deviceBus.mqttUrl, { stationId: STATION, ...lock }, fleets, 11);

  async function authorize(staffId: string, deviceIds: string[], window?: { start: number; end: number }) {
    const [row] = await database.db
      .insert(fixedAuthorization)
      .values({
        staffId,
        forever: !window,
        startTime: window ? new Date(window.start) : null,
        endTime: window ? new Date(window.end) : null,
        allDevice: deviceIds.length === 0,
      })
      .returning({ id: fixedAuthorization.id });
    if (deviceIds.length > 0) {
      await database.db
        .insert(fixedAuthorizationDevice)
        .values(deviceIds.map((deviceId) => ({ authorizationId: row!.id, deviceId })));
    }
    return row!.id;
  }

  async function task(
    staffId: string,
    deviceId: string,
    values: { state: 'Execute' | 'Audit' | 'None'; start: number; end: number },
  ) {
    const name = uniqueName('Replace cable');
    const [row] = await database.db
      .insert(lockTask)
      .values({
        name,
        state: values.state,
        startTime: new Date(values.start),
        endTime: new Date(values.end),
        creatorId: 'admin',
        creatorName: 'admin',
      })
      .returning({ id: lockTask.id });
    await database.db.insert(lockTaskOperator).values({ taskId: row!.id, staffId });
    await database.db.insert(lockTaskItem).values({ taskId: row!.id, deviceId });
    return { id: row!.id, name };
  }

  const lockReportsOpen = (deviceId: string) =>
    waitFor(
      async () => {
        const [runtime] = await database.db
          .select({ lockState: deviceRuntime.lockState })
          .from(deviceRuntime)
          .where(eq(deviceRuntime.deviceId, deviceId));
        return runtime?.lockState === 'open';
      },
      10_000,
      'the lock reports open',
    );

  /** A console subscribed to its station's topics, keeping the operation records it is sent. */
  async function liveOperations(staff: TestStaff, staffToken: string) {
    const client = await mqttClient(
      system!.deviceBus.broker!.wsUrl,
      staff.id,
      staffToken,
      `console-${randomUUID()}`,
    );
    clients.push(client);
    const records: OperationRecordRow[] = [];
    client.on('message', (_topic, payload) => {
      const event: ConsoleEvent = consoleEvent.parse(JSON.parse(payload.toString()));
      if (event.kind === 'operation') records.push(...event.changes);
    });
    await client.subscribeAsync(consoleSubscription(STATION), { qos: 0 });
    return records;
  }

  it('refuses an opening no task or authorisation allows, records it with its reason and sends nothing', async () => {
    const lock = await lockInLedger();
    const response = await remoteOpen(lock.id);
    expectCode(response, ResultCode.OpenNotAuthorized);
    expect(response.body.message).toBe(translateResult(ResultCode.OpenNotAuthorized, 'zh-CN'));
    const [record] = await recordsOf(lock.id);
    expect(record).toMatchObject({
      staffId: opener.id,
      staffName: opener.name,
      action: 'open',
      opMethod: 'remote',
      source: 'console',
      result: 'refused',
      refusal: 'notAuthorized',
      commandId: null,
    });
    expect(await database.db.select().from(deviceCommand).where(eq(deviceCommand.deviceId, lock.id))).toEqual(
      [],
    );
  });

  it('opens under a fixed authorisation: the lock obeys, the record follows its answer and goes out live', async () => {
    const lock = await lockInLedger();
    await simulatedLock(lock);
    const grantId = await authorize(opener.id, [lock.id]);
    const live = await liveOperations(opener, token);

    const response = await remoteOpen(lock.id);
    expectOk(response);
    const record = response.body.data;
    expect(record).toMatchObject({
      deviceId: lock.id,
      deviceCode: lock.code,
      action: 'open',
      authorizationId: grantId,
      taskId: null,
    });
    // The answer is the record as it stands: usually still waiting, already done if the lock was quick.
    expect(['sent', 'succeeded']).toContain(record.result);
    expect(record.commandId).not.toBeNull();
    await recordBecomes(record.id, 'succeeded');
    const [command] = await database.db
      .select()
      .from(deviceCommand)
      .where(eq(deviceCommand.id, record.commandId!));
    expect(command).toMatchObject({ cmdCode: 'open', state: 'Success', staffId: opener.id });
    // The simulated lock reports itself open.
    await lockReportsOpen(lock.id);
    await waitFor(
      async () => live.some((r) => r.id === record.id && r.result === 'succeeded'),
      10_000,
      'the record live',
    );
  });

  it('answers and sends live the record as it stands when the lock answers before the request has finished', async () => {
    const lock = await lockInLedger();
    await simulatedLock(lock);
    await authorize(opener.id, [lock.id]);
    const live = await liveOperations(opener, token);
    // The request reads its command's state only once the lock's answer has moved the record on. The answer
    // is written only once the request has tied the record to its command (on a loaded machine it could come
    // before, and find no record to move).
    const commands = system!.services.commands;
    const ingest = system!.services.iot.ingest;
    const stateOf = commands.stateOf;
    const issue = commands.issue;
    let tied = () => {};
    let issued = 0;
    commands.issue = async (...args) => {
      issued++;
      const { promise: held, release } = releasable();
      tied = release;
      void ingest.whileIdle(() => held, 10_000);
      return issue.apply(commands, args);
    };
    commands.stateOf = async (db, commandId) => {
      tied();
      await waitFor(
        async () =>
          (
            await database.db
              .select({ result: operationRecord.result })
              .from(operationRecord)
              .where(eq(operationRecord.commandId, commandId))
          )[0]?.result === 'succeeded',
        10_000,
        'the answer before the request reads the command',
      );
      return stateOf.call(commands, db, commandId);
    };
    let response: Awaited<ReturnType<typeof remoteOpen>>;
    try {
      response = await remoteOpen(lock.id);
    } finally {
      commands.stateOf = stateOf;
      commands.issue = issue;
      tied();
    }
    expect(issued).toBe(1);
    expectOk(response);
    expect(response.body.data.result).toBe('succeeded');
    const id = response.body.data.id;
    await waitFor(async () => live.some((r) => r.id === id && r.result === 'succeeded'), 10_000, 'live');
    // Nothing older follows the final state.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(live.filter((r) => r.id === id).at(-1)?.result).toBe('succeeded');
  });

  it('names the approved task it opens under, and refuses one not approved or outside its window', async () => {
    const lock = await lockInLedger();
    await simulatedLock(lock);
    const now = Date.now();
    const waiting = await task(opener.id, lock.id, { state: 'Audit', start: now - HOUR, end: now + HOUR });
    expectCode(await remoteOpen(lock.id), ResultCode.OpenTaskNotApproved);
    await database.db.delete(lockTask).where(eq(lockTask.id, waiting.id));

    const later = await task(opener.id, lock.id, { state: 'None', start: now + HOUR, end: now + 2 * HOUR });
    expectCode(await remoteOpen(lock.id), ResultCode.OpenOutsideTaskWindow);
    await database.db.delete(lockTask).where(eq(lockTask.id, later.id));

    const current = await task(opener.id, lock.id, { state: 'Execute', start: now - HOUR, end: now + HOUR });
    const response = await remoteOpen(lock.id);
    expectOk(response);
    expect(response.body.data).toMatchObject({ taskId: current.id, taskName: current.name });
    await recordBecomes(response.body.data.id, 'succeeded');
    expect((await recordsOf(lock.id)).map((r) => r.refusal).sort()).toEqual([
      null,
      'outsideTaskWindow',
      'taskNotApproved',
    ]);
  });

  it("refuses a staff member without the device type's grant, even with an authorisation", async () => {
    const lock = await lockInLedger();
    const other = await t.createStaff({ permissions: [Permission.DeviceOpen] });
    // For every device: taken away again below, or it would cover the openings the later tests report.
    const everywhere = await authorize(other.id, []);
    const otherToken = await t.signIn(other.name, other.password);
    expectCode(await remoteOpen(lock.id, otherToken), ResultCode.OpenDeviceTypeNotGranted);
    expectCode(await remoteClose(lock.id, otherToken), ResultCode.OpenDeviceTypeNotGranted);
    expect((await recordsOf(lock.id)).map((r) => [r.action, r.refusal]).sort()).toEqual([
      ['close', 'deviceTypeNotGranted'],
      ['open', 'deviceTypeNotGranted'],
    ]);
    await database.db.delete(fixedAuthorization).where(eq(fixedAuthorization.id, everywhere));
  });

  it('closes without a task (locking is safe), and the lock obeys', async () => {
    const lock = await lockInLedger();
    await simulatedLock(lock);
    const response = await remoteClose(lock.id);
    expectOk(response);
    expect(response.body.data).toMatchObject({ action: 'close', taskId: null });
    expect(['sent', 'succeeded']).toContain(response.body.data.result);
    await recordBecomes(response.body.data.id, 'succeeded');
  });

  it('ends the record as failed when the lock never answers', async () => {
    const lock = await lockInLedger();
    await authorize(opener.id, [lock.id]);
    const response = await remoteOpen(lock.id);
    expectOk(response);
    expect(response.body.data.result).toBe('sent');
    // Sent three times a second apart (max retransmit 2), then given up.
    await recordBecomes(response.body.data.id, 'failed');
  }, 20_000);

  it('answers NotFound for an unknown device and DeviceNotIot for an unregistered or electronic lock', async () => {
    expectCode(await remoteOpen('no-such-device'), ResultCode.NotFound);
    const unregistered = await lockInLedger({ regist: false });
    expectCode(await remoteOpen(unregistered.id), ResultCode.DeviceNotIot);
    const elec = await lockInLedger();
    await database.db.update(device).set({ category: 'Elec' }).where(eq(device.id, elec.id));
    expectCode(await remoteOpen(elec.id), ResultCode.DeviceNotIot);
    expect(await recordsOf(unregistered.id)).toEqual([]);
    expect(await recordsOf(elec.id)).toEqual([]);
  });

  it('lists and searches the records, and exports a time range as CSV', async () => {
    const lock = await lockInLedger();
    expectCode(await remoteOpen(lock.id), ResultCode.OpenNotAuthorized);
    const page = await call(api.operationRecord.queryPage, {
      query: { pageIndex: '1', pageSize: '20', deviceId: lock.id, result: 'refused' },
    });
    expectOk(page);
    expect(page.body.data.total).toBe(1);
    expect(page.body.data.rows[0]).toMatchObject({ deviceId: lock.id, refusal: 'notAuthorized' });
    const none = await call(api.operationRecord.queryPage, {
      query: { pageIndex: '1', pageSize: '20', deviceId: lock.id, result: 'succeeded' },
    });
    expect(none.body.data.total).toBe(0);

    const exportOf = (query: Record<string, string>) =>
      system!.app.inject({
        method: 'GET',
        url: urlOf(api.operationRecord.export),
        query,
        headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
      });
    const noRange = await exportOf({ deviceId: lock.id });
    expect(noRange.json()).toMatchObject({ success: false });
    const start = new Date(Date.now() - HOUR).toISOString();
    const end = new Date(Date.now() + HOUR).toISOString();
    const csv = await exportOf({ deviceId: lock.id, startTime: start, endTime: end });
    const lines = csv.body.slice(1).split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('Opening refused: no lock task or fixed authorisation');
    expect(lines[1]).toContain(opener.name);
  });

  describe('openings the locks report', () => {
    /** The lock itself on the bus: publishes its reports as a native MQTT lock. */
    async function reportingLock(lock: { code: string; secret: string | null }) {
      const client = await mqttClient(
        system!.deviceBus.mqttUrl,
        lock.code,
        lock.secret!,
        `lock-${randomUUID()}`,
      );
      clients.push(client);
      return (messageId: string, lockState: 'open' | 'closed', event = 'lockChanged', reportedAt?: number) =>
        client.publishAsync(
          `dev/${STATION}/${lock.code}/up`,
          encodeNativeReport({
            messageId,
            event: event as 'lockChanged',
            lock: lockState,
            ...(reportedAt === undefined ? {} : { reportedAt }),
          }),
          { qos: 1 },
        );
    }
    const lockState = async (deviceId: string) =>
      (
        await database.db
          .select({ lockState: deviceRuntime.lockState })
          .from(deviceRuntime)
          .where(eq(deviceRuntime.deviceId, deviceId))
      )[0]?.lockState;
    const alarmsOf = (deviceId: string) =>
      database.db.select().from(deviceAlarm).where(eq(deviceAlarm.deviceId, deviceId));

    it('records an opening nothing covered, once, and raises the built-in alarm', async () => {
      const lock = await lockInLedger();
      const report = await reportingLock(lock);
      const live = await liveOperations(opener, token);
      await report('u-1', 'open');
      await report('u-1', 'open'); // sent again by the lock: the same opening
      await report('c-1', 'closed');
      await report('s-1', 'open', 'status'); // no new opening
      const record = await eventually(async () => (await recordsOf(lock.id))[0]);
      expect(record).toMatchObject({
        action: 'open',
        source: 'device',
        result: 'reported',
        covered: false,
        opMethod: null,
        staffId: null,
        taskId: null,
      });
      const [alarm] = await eventually(async () => {
        const rows = await alarmsOf(lock.id);
        return rows.length > 0 ? rows : undefined;
      });
      expect(alarm).toMatchObject({ ruleId: null, ruleName: 'builtin.uncoveredOpening', state: 'Warn' });
      await waitFor(async () => live.some((r) => r.id === record.id), 10_000, 'the record live');
      // The page shows the alarm in the reader's language.
      const admin = await t.createStaff({ permissions: [Permission.AlarmRead] });
      const page = await call(api.deviceAlarm.queryPage, {
        query: { pageIndex: '1', pageSize: '5', deviceId: lock.id },
        as: await t.signIn(admin.name, admin.password),
        lang: 'en',
      });
      expectOk(page);
      expect(page.body.data.rows[0]).toMatchObject({ ruleName: 'Unauthorised opening' });
      expect(page.body.data.rows[0]!.content).toContain('was opened with no lock task');
      await new Promise((done) => setTimeout(done, 300));
      expect(await recordsOf(lock.id)).toHaveLength(1);
      expect(await alarmsOf(lock.id)).toHaveLength(1);
    });

    it('records an opening whose message comes in late (older than what the lock last reported)', async () => {
      const lock = await lockInLedger();
      const report = await reportingLock(lock);
      await report('h-1', 'closed', 'status');
      await eventually(async () => (await lockState(lock.id)) ?? undefined);
      // Another writer or instance stored a newer message of the lock: this opening changes no state.
      await database.db
        .update(deviceRuntime)
        .set({ lastCollectTime: new Date(Date.now() + HOUR) })
        .where(eq(deviceRuntime.deviceId, lock.id));
      await report('u-late', 'open');
      const record = await eventually(async () => (await recordsOf(lock.id))[0]);
      expect(record).toMatchObject({ action: 'open', source: 'device', result: 'reported', covered: false });
      expect(await lockState(lock.id)).toBe('closed');
    });

    it('names the task or authorisation that covered it, and raises nothing', async () => {
      const now = Date.now();
      const tasked = await lockInLedger();
      const current = await task(opener.id, tasked.id, {
        state: 'Execute',
        start: now - HOUR,
        end: now + HOUR,
      });
      await (await reportingLock(tasked))('t-1', 'open');
      const byTask = await eventually(async () => (await recordsOf(tasked.id))[0]);
      expect(byTask).toMatchObject({ covered: true, taskId: current.id, taskName: current.name });

      const granted = await lockInLedger();
      const grantId = await authorize(opener.id, [granted.id]);
      await (await reportingLock(granted))('g-1', 'open');
      const byGrant = await eventually(async () => (await recordsOf(granted.id))[0]);
      expect(byGrant).toMatchObject({ covered: true, authorizationId: grantId });
      await new Promise((done) => setTimeout(done, 300));
      expect([...(await alarmsOf(tasked.id)), ...(await alarmsOf(granted.id))]).toEqual([]);
    });

    it('judges an opening reported late at the time the lock says it happened', async () => {
      const now = Date.now();
      const lock = await lockInLedger();
      // The task ended half an hour ago; the lock, out of reach until now, opened an hour ago.
      const ended = await task(opener.id, lock.id, {
        state: 'Execute',
        start: now - 2 * HOUR,
        end: now - HOUR / 2,
      });
      await (await reportingLock(lock))('o-1', 'open', 'lockChanged', now - HOUR);
      const record = await eventually(async () => (await recordsOf(lock.id))[0]);
      expect(record).toMatchObject({ covered: true, taskId: ended.id });
      expect(record!.operateTime.getTime()).toBe(now - HOUR);
      await new Promise((done) => setTimeout(done, 300));
      expect(await alarmsOf(lock.id)).toEqual([]);
    });

    it('takes the opening of a lock whose clock runs behind for the one a remote open asked for', async () => {
      const lock = await lockInLedger();
      await authorize(opener.id, [lock.id]);
      expectOk(await remoteOpen(lock.id));
      // The lock opens at once, but its clock is half a minute behind the server's.
      await (await reportingLock(lock))('b-1', 'open', 'lockChanged', Date.now() - 30_000);
      await eventually(async () => ((await lockState(lock.id)) === 'open' ? true : undefined));
      await new Promise((done) => setTimeout(done, 300));
      expect((await recordsOf(lock.id)).map((r) => r.source)).toEqual(['console']);
      expect(await alarmsOf(lock.id)).toEqual([]);
    });

    it('takes the opening a remote open asked for as that one, not a second record', async () => {
      const lock = await lockInLedger();
      await simulatedLock(lock);
      await authorize(opener.id, [lock.id]);
      const response = await remoteOpen(lock.id);
      expectOk(response);
      await recordBecomes(response.body.data.id, 'succeeded');
      await lockReportsOpen(lock.id);
      await new Promise((done) => setTimeout(done, 300));
      expect((await recordsOf(lock.id)).map((r) => r.source)).toEqual(['console']);
      expect(await alarmsOf(lock.id)).toEqual([]);
    });
  });

  it('refuses the calls without their permissions', async () => {
    const lock = await lockInLedger();
    const reader = await t.createStaff({ permissions: [Permission.OperationRecordRead] });
    const readerToken = await t.signIn(reader.name, reader.password);
    expectCode(await remoteOpen(lock.id, readerToken), ResultCode.Forbidden);
    expectCode(await remoteClose(lock.id, readerToken), ResultCode.Forbidden);
  });
});
