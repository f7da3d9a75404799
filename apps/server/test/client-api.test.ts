import { randomBytes, randomUUID } from 'node:crypto';
import {
  api,
  CLIENT_HEADER,
  type Endpoint,
  type EndpointResult,
  Permission,
  ResultCode,
  type UploadedRecord,
} from '@uiot/contracts';
import { encodeNativeReport } from '@uiot/device-protocol';
import { eq } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STATION } from '../src/lib/station.ts';
import { deviceAlarm } from '../src/modules/alarms/alarms.schema.ts';
import { SERVER_OPERATOR } from '../src/modules/devices/device-operation.ts';
import { lockCode, lockKey } from '../src/modules/devices/devices.schema.ts';
import { lockTask, lockTaskItem, operationRecord } from '../src/modules/tasks/tasks.schema.ts';
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
import { busSuite, mqttClient } from './support/device-bus.ts';
import { insertDeviceRow } from './support/devices.ts';
import { expectCode, expectInvalid, expectOk } from './support/org.ts';

const STATION = DEFAULT_STATION.id;
const HOUR = 3_600_000;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The client and key API on the whole server (docs/client-api.md): a task is written and audited in the
 * console, a client registered and passed in /sys/client downloads it for a key, the lock reports the
 * opening, the client uploads the record (twice: stored once) with a live photo, and the task finishes. A
 * client never passed gets nothing.
 */
describe.each(databases)('client and key API ($kind)', ({ open }) => {
  const bus = busSuite(open);
  let database: TestDatabase;
  let system: RunningSystem & { removeDir(): void };
  let t: TestApp;
  let fixtures: { unitId: string; typeId: string };
  let operator: TestStaff;
  let creator: string;
  let auditor: string;
  let reviewer: string;
  const clients: MqttClient[] = bus.clients;

  beforeAll(async () => {
    ({ database, system, t, fixtures } = bus);
    await t.setParam('MobileAppRegist', 'true');
    await t.setParam('TaskNeedAudit', 'true');
    operator = await t.createStaff({
      permissions: [Permission.AppTaskDownload, Permission.AppRecordUpload],
      deviceTypes: [fixtures.typeId],
    });
    const writer = await t.createStaff({
      permissions: [Permission.LockTaskRead, Permission.LockTaskCreate, Permission.LockTaskUpdate],
    });
    creator = await t.signIn(writer.name, writer.password);
    const audit = await t.createStaff({ permissions: [Permission.LockTaskRead, Permission.LockTaskAudit] });
    auditor = await t.signIn(audit.name, audit.password);
    const admin = await t.createStaff({ permissions: [Permission.ClientRead, Permission.ClientReview] });
    reviewer = await t.signIn(admin.name, admin.password);
  });

  const call = <E extends Endpoint>(
    endpoint: E,
    input: EndpointCallOptions<E> & { as?: string | null; client?: string } = {},
  ): Promise<CallResult<EndpointResult<E>>> =>
    callEndpoint(system!.app, endpoint, {
      ...input,
      token: input.as === undefined ? null : input.as,
      ...(input.client ? { headers: { [CLIENT_HEADER]: input.client } } : {}),
    });

  /** A client that registers; passed by the reviewer unless told otherwise. */
  async function registeredClient(pass = true) {
    const clientId = `android-${randomBytes(4).toString('hex')}`;
    const registered = await call(api.client.register, {
      payload: { clientId, clientType: 'ANDROID', name: uniqueName('Phone'), registCode: '482913' },
    });
    expectOk(registered);
    expect(registered.body.data).toEqual({ state: 'pending' });
    if (pass) {
      const page = await call(api.client.queryPage, {
        query: { pageIndex: '1', pageSize: '10', keyword: clientId },
        as: reviewer,
      });
      expectOk(page);
      expect(page.body.data.rows[0]).toMatchObject({ clientId, state: 'pending', registCode: '482913' });
      expectOk(
        await call(api.client.review, {
          payload: { id: page.body.data.rows[0]!.id, pass: true },
          as: reviewer,
        }),
      );
    }
    return clientId;
  }

  async function signInOn(clientId: string, who: TestStaff = operator) {
    const response = await call(api.client.login, {
      payload: { clientId, name: who.name, pwd: who.password },
    });
    expectOk(response);
    return response.body.data.token;
  }

  async function keyOf(staffId: string) {
    const [row] = await database.db
      .insert(lockKey)
      .values({ name: uniqueName('Key'), code: `K-${randomBytes(3).toString('hex')}`, staffId })
      .returning({ id: lockKey.id });
    return row!.id;
  }

  /** A registered IoT lock with a lock code, and the lock itself on the bus reporting its openings. */
  async function lock() {
    const code = `C-${randomBytes(3).toString('hex')}`;
    const id = await insertDeviceRow(database.db, { ...fixtures, code, name: uniqueName('Signal room') });
    const credential = await system!.services.devices.ledger.register(id, SERVER_OPERATOR);
    await database.db.insert(lockCode).values({ deviceId: id, rfidCode: `RF${code}`, rfidType: 'EM' });
    const client = await mqttClient(
      system!.deviceBus.mqttUrl,
      code,
      credential!.secret,
      `lock-${randomUUID()}`,
    );
    clients.push(client);
    const reportOpen = (messageId: string) =>
      client.publishAsync(
        `dev/${STATION}/${code}/up`,
        encodeNativeReport({ messageId, event: 'lockChanged', lock: 'open' }),
        { qos: 1 },
      );
    return { id, code, reportOpen };
  }

  /** A task written, handed in and passed in the console: executing now, for the operator on the lock. */
  async function approvedTask(deviceId: string, keyId: string | null) {
    const saved = await call(api.lockTask.save, {
      payload: {
        name: uniqueName('Inspect signal room'),
        startTime: new Date(Date.now() - HOUR).toISOString(),
        endTime: new Date(Date.now() + 4 * HOUR).toISOString(),
        operatorIds: [operator.id],
        items: [{ deviceId, keyId }],
      },
      as: creator,
    });
    expectOk(saved);
    const id = saved.body.data.id;
    expectOk(await call(api.lockTask.submit, { query: { id }, as: creator }));
    expectOk(await call(api.lockTask.pass, { query: { id }, as: auditor }));
    return id;
  }

  it('runs the whole loop: audit, download for a key, the opening, the upload (once), the task finished', async () => {
    const clientId = await registeredClient();
    const token = await signInOn(clientId);
    const keyId = await keyOf(operator.id);
    const door = await lock();
    const taskId = await approvedTask(door.id, keyId);

    const downloaded = await call(api.client.downloadTasks, {
      query: { keyId },
      as: token,
      client: clientId,
    });
    expectOk(downloaded);
    const task = downloaded.body.data.find((d) => d.id === taskId);
    expect(task?.items).toEqual([
      expect.objectContaining({
        deviceId: door.id,
        deviceCode: door.code,
        lockCodes: [{ rfidCode: `RF${door.code}`, rfidType: 'EM', dnbs: null, blueAddr: null }],
      }),
    ]);
    const [item] = await database.db.select().from(lockTaskItem).where(eq(lockTaskItem.taskId, taskId));
    expect(item?.toKeyTime).not.toBeNull();

    // The key opens the lock, which reports it: covered by the task.
    await door.reportOpen(`open-${randomUUID()}`);
    const reported = await eventually(async () => {
      const rows = await database.db
        .select()
        .from(operationRecord)
        .where(eq(operationRecord.deviceId, door.id));
      return rows.find((r) => r.source === 'device');
    });
    expect(reported).toMatchObject({ covered: true, taskId });

    const photo = await system!.app.inject({
      method: 'POST',
      url: '/api/file/upload?kind=photo',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=x' },
      payload: Buffer.concat([
        Buffer.from(
          '--x\r\nContent-Disposition: form-data; name="file"; filename="live.png"\r\nContent-Type: image/png\r\n\r\n',
        ),
        PNG,
        Buffer.from('\r\n--x--\r\n'),
      ]),
    });
    expect(photo.json()).toMatchObject({ success: true });
    const photoFileId = photo.json().data.id as string;

    const record: UploadedRecord = {
      recordId: randomUUID(),
      deviceId: door.id,
      taskId,
      keyId,
      action: 'open',
      opMethod: 'key',
      result: 'succeeded',
      operateTime: new Date().toISOString(),
      lockCode: `RF${door.code}`,
      photoFileId,
    };
    const upload = () =>
      call(api.client.uploadRecords, { payload: { records: [record] }, as: token, client: clientId });
    const first = await upload();
    expectOk(first);
    expect(first.body.data).toEqual({ stored: 1, repeated: 0 });
    const again = await upload();
    expectOk(again);
    expect(again.body.data).toEqual({ stored: 0, repeated: 1 });

    const uploaded = (
      await database.db.select().from(operationRecord).where(eq(operationRecord.deviceId, door.id))
    ).filter((r) => r.source === 'client');
    expect(uploaded).toHaveLength(1);
    expect(uploaded[0]).toMatchObject({
      staffId: operator.id,
      keyId,
      taskId,
      opMethod: 'key',
      result: 'succeeded',
      photoFileId,
    });
    expect(uploaded[0]!.uploadTime).not.toBeNull();
    // The console shows the photo to readers of the records.
    const reader = await t.createStaff({ permissions: [Permission.OperationRecordRead] });
    const shown = await system!.app.inject({
      method: 'GET',
      url: urlOf(api.operationRecord.photo),
      query: { id: uploaded[0]!.id },
      headers: { authorization: `Bearer ${await t.signIn(reader.name, reader.password)}` },
    });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('image/png');
    expect(shown.rawPayload.equals(PNG)).toBe(true);
    const [finished] = await database.db.select().from(lockTask).where(eq(lockTask.id, taskId));
    expect(finished).toMatchObject({ state: 'Finish', finishFlag: 'completed' });
  });

  it('gives a client never passed nothing: no sign-in, no download, no upload', async () => {
    const pending = await registeredClient(false);
    expectCode(
      await call(api.client.login, {
        payload: { clientId: pending, name: operator.name, pwd: operator.password },
      }),
      ResultCode.ClientNotPassed,
    );
    expectCode(
      await call(api.client.login, {
        payload: { clientId: 'never-registered', name: operator.name, pwd: operator.password },
      }),
      ResultCode.ClientUnknown,
    );
    // A session from a passed client does not serve a call naming another, nor a call naming none.
    const passed = await registeredClient();
    const token = await signInOn(passed);
    const keyId = await keyOf(operator.id);
    expectCode(
      await call(api.client.downloadTasks, { query: { keyId }, as: token, client: pending }),
      ResultCode.ClientNotPassed,
    );
    expectCode(
      await call(api.client.downloadTasks, { query: { keyId }, as: token }),
      ResultCode.ClientUnknown,
    );
    expectCode(
      await call(api.client.uploadRecords, {
        payload: {
          records: [
            {
              recordId: randomUUID(),
              deviceId: 'x',
              action: 'open',
              opMethod: 'key',
              result: 'succeeded',
              operateTime: new Date().toISOString(),
            },
          ],
        },
        as: token,
        client: pending,
      }),
      ResultCode.ClientNotPassed,
    );
  });

  it('tells a rejected client why, and lets it register again for another review', async () => {
    const clientId = await registeredClient(false);
    const page = await call(api.client.queryPage, {
      query: { pageIndex: '1', pageSize: '10', keyword: clientId },
      as: reviewer,
    });
    const id = page.body.data.rows[0]!.id;
    expectInvalid(await call(api.client.review, { payload: { id, pass: false }, as: reviewer }), [
      'resultDesc',
    ]);
    expectOk(
      await call(api.client.review, {
        payload: { id, pass: false, resultDesc: 'Unknown phone' },
        as: reviewer,
      }),
    );
    expect((await call(api.client.state, { query: { clientId } })).body.data).toEqual({
      state: 'rejected',
      resultDesc: 'Unknown phone',
    });
    const refused = await call(api.client.login, {
      payload: { clientId, name: operator.name, pwd: operator.password },
      lang: 'en',
    });
    expectCode(refused, ResultCode.ClientRejected);
    expect(refused.body.message).toContain('Unknown phone');
    const again = await call(api.client.register, {
      payload: { clientId, clientType: 'ANDROID', name: 'Phone', registCode: '111222' },
    });
    expect(again.body.data).toEqual({ state: 'pending' });
  });

  it('downloads only locks the key may open, naming the reason of the others', async () => {
    const clientId = await registeredClient();
    const token = await signInOn(clientId);
    const keyId = await keyOf(operator.id);
    const door = await lock();
    const taskId = await approvedTask(door.id, null);
    await database.db.update(lockKey).set({ state: 'lost' }).where(eq(lockKey.id, keyId));
    const downloaded = await call(api.client.downloadTasks, {
      query: { keyId },
      as: token,
      client: clientId,
    });
    expectOk(downloaded);
    const task = downloaded.body.data.find((d) => d.id === taskId);
    expect(task?.items).toEqual([]);
    expect(task?.refused).toEqual([
      { deviceId: door.id, deviceName: expect.any(String), refusal: 'keyUnusable' },
    ]);
    // The task's item keeps the reason, until a download sends it.
    const itemOf = async () =>
      (await database.db.select().from(lockTaskItem).where(eq(lockTaskItem.taskId, taskId)))[0];
    expect(await itemOf()).toMatchObject({ downloadRefusal: 'keyUnusable', toKeyTime: null });
    await database.db.update(lockKey).set({ state: 'normal' }).where(eq(lockKey.id, keyId));
    expectOk(await call(api.client.downloadTasks, { query: { keyId }, as: token, client: clientId }));
    expect(await itemOf()).toMatchObject({ downloadRefusal: null, toKeyTime: expect.any(Date) });
    const otherKey = await keyOf((await t.createStaff()).id);
    expectCode(
      await call(api.client.downloadTasks, { query: { keyId: otherKey }, as: token, client: clientId }),
      ResultCode.KeyNotYours,
    );
  });

  it("decides each uploaded opening: another's record neither does the task's work nor hides the lock's opening", async () => {
    const door = await lock();
    const taskId = await approvedTask(door.id, null);
    const stranger = await t.createStaff({
      permissions: [Permission.AppRecordUpload],
      deviceTypes: [fixtures.typeId],
    });
    const clientId = await registeredClient();
    const strangerToken = await signInOn(clientId, stranger);
    const upload = (as: string, record: Partial<UploadedRecord>) =>
      call(api.client.uploadRecords, {
        payload: {
          records: [
            {
              recordId: randomUUID(),
              deviceId: door.id,
              action: 'open',
              opMethod: 'bluetooth',
              result: 'succeeded',
              operateTime: new Date().toISOString(),
              ...record,
            },
          ],
        },
        as,
        client: clientId,
      });
    const clientRecords = async () =>
      (await database.db.select().from(operationRecord).where(eq(operationRecord.deviceId, door.id))).filter(
        (r) => r.source === 'client',
      );
    const alarms = () => database.db.select().from(deviceAlarm).where(eq(deviceAlarm.deviceId, door.id));

    // Someone the task is not for names it: recorded as the opening nobody allowed, with its alarm.
    expectOk(await upload(strangerToken, { taskId }));
    expect(await clientRecords()).toEqual([
      expect.objectContaining({
        staffId: stranger.id,
        taskId: null,
        refusal: 'notAuthorized',
        covered: false,
        result: 'succeeded',
      }),
    ]);
    const [item] = await database.db.select().from(lockTaskItem).where(eq(lockTaskItem.taskId, taskId));
    expect(item?.uploadTime).toBeNull();
    expect((await database.db.select().from(lockTask).where(eq(lockTask.id, taskId)))[0]?.state).toBe(
      'Execute',
    );
    const [alarm] = await eventually(async () => {
      const rows = await alarms();
      return rows.length > 0 ? rows : undefined;
    });
    expect(alarm).toMatchObject({ ruleName: 'builtin.uncoveredOpening' });
    // The lock reports that opening: it is the one recorded, not a second one.
    await door.reportOpen(`open-${randomUUID()}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const records = await database.db
      .select()
      .from(operationRecord)
      .where(eq(operationRecord.deviceId, door.id));
    expect(records.filter((r) => r.source === 'device')).toEqual([]);
    expect(await alarms()).toHaveLength(1);

    // A record of what has not happened yet is refused.
    const ahead = await upload(await signInOn(clientId), {
      taskId,
      operateTime: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expectInvalid(ahead, ['records.0.operateTime']);

    // The operator's record, uploaded after the task ended, of an opening inside its window: covered.
    await database.db
      .update(lockTask)
      .set({ state: 'Finish', finishFlag: 'expired' })
      .where(eq(lockTask.id, taskId));
    expectOk(
      await upload(await signInOn(clientId), { operateTime: new Date(Date.now() - 60_000).toISOString() }),
    );
    expect((await clientRecords()).find((r) => r.staffId === operator.id)).toMatchObject({
      taskId,
      refusal: null,
      covered: true,
    });
    expect(await alarms()).toHaveLength(1);
  });

  it('refuses an upload naming an unknown device or task with field errors, storing nothing', async () => {
    const clientId = await registeredClient();
    const token = await signInOn(clientId);
    const recordId = randomUUID();
    const response = await call(api.client.uploadRecords, {
      payload: {
        records: [
          {
            recordId,
            deviceId: 'no-such-device',
            taskId: 'no-such-task',
            action: 'open',
            opMethod: 'bluetooth',
            result: 'failed',
            operateTime: new Date().toISOString(),
          },
        ],
      },
      as: token,
      client: clientId,
    });
    expectInvalid(response, ['records.0.deviceId', 'records.0.taskId']);
    expect(
      await database.db
        .select()
        .from(operationRecord)
        .where(eq(operationRecord.clientRecordId, `client:${recordId}`)),
    ).toEqual([]);
  });
});
