import { randomBytes } from 'node:crypto';
import {
  api,
  type CommandState,
  type Endpoint,
  type EndpointResult,
  Permission,
  ResultCode,
  translateValidation,
} from '@uiot/contracts';
import type { Fleet } from '@uiot/simulator';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STATION } from '../src/lib/station.ts';
import { waitFor } from '../src/lib/test-support.ts';
import { opLog } from '../src/modules/admin/logs.schema.ts';
import { type DeviceCommandRecord, deviceCommand } from '../src/modules/commands/commands.schema.ts';
import { PARAM_COMMAND } from '../src/modules/commands/param-send.service.ts';
import { SERVER_OPERATOR } from '../src/modules/devices/device-operation.ts';
import { devicePassword } from '../src/modules/devices/devices.schema.ts';
import { PASSWORD_COMMAND } from '../src/modules/devices/replacement.service.ts';
import type { RunningSystem } from '../src/system.ts';
import {
  type CallResult,
  callEndpoint,
  type EndpointCallOptions,
  eventually,
  type TestApp,
  type TestStaff,
  urlOf,
} from './support/app.ts';
import { databases, type TestDatabase } from './support/databases.ts';
import { busSuite, simulatedLock as simulatedLockOf } from './support/device-bus.ts';
import { insertDeviceRow } from './support/devices.ts';
import { expectCode, expectInvalid, expectOk } from './support/org.ts';

const STATION = DEFAULT_STATION.id;
const SEND_PARAM = api.deviceCommand.sendParam;

/**
 * Parameter send-down (`POST /api/deviceCommand/sendParam`) and the one-click replacement's password
 * command, on the whole server: the commands leave through the device bus to simulated locks
 * (`@uiot/simulator`), whose answers come back through ingest.
 */
describe.each(databases)('device commands through the API ($kind)', ({ open }) => {
  const bus = busSuite(open, { commandRetransmitSeconds: 1 });
  let database: TestDatabase;
  let system: RunningSystem & { removeDir(): void };
  /** Creates staff and signs them in; the calls under test go to the running system. */
  let t: TestApp;
  let fixtures: { unitId: string; typeId: string };
  let sender: TestStaff;
  let token: string;
  const fleets: Fleet[] = bus.fleets;

  beforeAll(async () => {
    ({ database, system, t, fixtures } = bus);
    sender = await t.createStaff({
      permissions: [Permission.DeviceCommandSend, Permission.DeviceCommandRead, Permission.DeviceReplaceLock],
      deviceTypes: [fixtures.typeId],
    });
    token = await t.signIn(sender.name, sender.password);
  });

  const call = <E extends Endpoint>(
    endpoint: E,
    input: EndpointCallOptions<E> & { as?: string } = {},
  ): Promise<CallResult<EndpointResult<E>>> =>
    callEndpoint(system!.app, endpoint, { ...input, token: input.as ?? token });
  const sendParam = (body: unknown, as?: string, lang?: string) =>
    call(SEND_PARAM, { payload: body, ...(as ? { as } : {}), ...(lang ? { lang } : {}) });
  const records = async (query: Record<string, string>) => {
    const response = await call(api.deviceCommand.queryPage, {
      query: { pageIndex: '1', pageSize: '50', ...query },
    });
    expectOk(response);
    return response.body.data;
  };

  const commandsOf = (deviceId: string) =>
    database.db.select().from(deviceCommand).where(eq(deviceCommand.deviceId, deviceId));
  async function commandOf(id: string): Promise<DeviceCommandRecord> {
    const [row] = await database.db.select().from(deviceCommand).where(eq(deviceCommand.id, id));
    return row!;
  }
  async function stateBecomes(id: string, state: CommandState, timeoutMs = 10_000) {
    await waitFor(async () => (await commandOf(id)).state === state, timeoutMs, `command ${state}`);
    return commandOf(id);
  }

  /** A device in the ledger with a code; registered (with its broker credential) unless told otherwise. */
  async function lockInLedger(registered = true) {
    const code = `P-${randomBytes(3).toString('hex')}`;
    const id = await insertDeviceRow(database.db, { ...fixtures, code });
    const credential = registered
      ? await system!.services.devices.ledger.register(id, SERVER_OPERATOR)
      : null;
    return { id, code, secret: credential?.secret ?? null };
  }

  /** A simulated native MQTT lock on the test broker, connected. */
  const simulatedLock = (lock: { code: string; secret: string | null }) =>
    simulatedLockOf(system!.deviceBus.mqttUrl, { stationId: STATION, ...lock }, fleets);

  describe('POST /api/deviceCommand/sendParam', () => {
    const value = (deviceId: string, extra: Record<string, unknown> = {}) => ({
      kind: 'value',
      deviceId,
      name: 'heartbeatSeconds',
      value: '300',
      ...extra,
    });
    const period = (deviceId: string, extra: Record<string, unknown> = {}) => ({
      kind: 'period',
      deviceId,
      name: 'quietHours',
      start: '22:00',
      end: '23:30',
      ...extra,
    });

    it('answers 400 with the field of every broken rule, and sends nothing', async () => {
      const lock = await lockInLedger();
      const cases: Array<[unknown, string[]]> = [
        [{}, ['kind']],
        [{ kind: 'range', deviceId: lock.id }, ['kind']],
        [{ kind: 'value' }, ['deviceId', 'name', 'value']],
        [value(lock.id, { name: 'heart beat' }), ['name']],
        [value(lock.id, { name: 'n'.repeat(65) }), ['name']],
        [value(lock.id, { name: '__proto__' }), ['name']],
        [value(lock.id, { value: '  ' }), ['value']],
        [value(lock.id, { value: 'v'.repeat(257) }), ['value']],
        [value('d'.repeat(65)), ['deviceId']],
        [{ kind: 'period', deviceId: lock.id, name: 'quietHours' }, ['start', 'end']],
        [period(lock.id, { start: '7:00' }), ['start']],
        [period(lock.id, { end: '24:00' }), ['end']],
        [period(lock.id, { start: '08:00', end: '08:00' }), ['end']],
        [period(lock.id, { start: '09:00', end: '08:00' }), ['end']],
      ];
      for (const [body, paths] of cases) expectInvalid(await sendParam(body), paths);
      expect(await commandsOf(lock.id)).toEqual([]);
    });

    it('says what is wrong in the language of the caller', async () => {
      const lock = await lockInLedger();
      for (const lang of ['en', 'zh-CN'] as const) {
        const response = await sendParam(period(lock.id, { start: '09:00', end: '08:00' }), undefined, lang);
        expect(response.body.data).toEqual([
          { path: 'end', message: translateValidation('v.endAfterStart', lang) },
        ]);
      }
    });

    it('refuses a device not in the ledger with NotFound and an unregistered one with DeviceNotRegistered', async () => {
      expectCode(await sendParam(value('no-such-device')), ResultCode.NotFound);
      const unregistered = await lockInLedger(false);
      expectCode(await sendParam(value(unregistered.id)), ResultCode.DeviceNotRegistered);
      expect(await commandsOf(unregistered.id)).toEqual([]);
    });

    it('sends a value parameter as a setParam command that goes Waitting → Success when the lock answers', async () => {
      const lock = await lockInLedger();
      const fleet = await simulatedLock(lock);
      const response = await sendParam(value(lock.id));
      expectOk(response);
      const row = response.body.data;
      expect(row).toMatchObject({
        deviceId: lock.id,
        deviceCode: lock.code,
        cmdCode: 'setParam',
        name: 'setParam heartbeatSeconds',
        params: '{"heartbeatSeconds":300}',
        state: 'Waitting',
        sendFlag: true,
        attempts: 1,
        maxRetransmit: PARAM_COMMAND.maxRetransmit,
        transport: 'mqtt',
        failure: null,
        staffName: sender.name,
        finishTime: null,
      });
      const expiresIn = Date.parse(row.expireTime) - Date.parse(row.createTime);
      expect(Math.abs(expiresIn - PARAM_COMMAND.expireSeconds * 1000)).toBeLessThan(5_000);

      const done = await stateBecomes(row.id, 'Success');
      expect(done).toMatchObject({ staffId: sender.id, params: { heartbeatSeconds: 300 } });
      expect(fleet.stats.commandsReceived).toBe(1);
      expect(fleet.stats.resultsSent).toBe(1);
      const [shown] = (await records({ deviceId: lock.id })).rows;
      expect(shown).toMatchObject({ id: row.id, state: 'Success', sendFlag: true });
      expect(shown?.finishTime).not.toBeNull();
    });

    it('sends a period parameter as its start and end in minutes since midnight', async () => {
      const lock = await lockInLedger();
      await simulatedLock(lock);
      const response = await sendParam(period(lock.id));
      expectOk(response);
      expect(response.body.data.name).toBe('setParam quietHours');
      expect(JSON.parse(response.body.data.params)).toEqual({
        'quietHours.start': 1320,
        'quietHours.end': 1410,
      });
      await stateBecomes(response.body.data.id, 'Success');
    });

    it('keeps a command to a lock that is not connected waiting, to be sent again', async () => {
      const lock = await lockInLedger();
      const response = await sendParam(value(lock.id, { value: 'eco' }));
      expectOk(response);
      expect(response.body.data).toMatchObject({ state: 'Waitting', params: '{"heartbeatSeconds":"eco"}' });
      await waitFor(async () => (await commandOf(response.body.data.id)).attempts >= 2, 10_000, 'a resend');
    });

    it('writes the call to the operation log, with who and what', async () => {
      const lock = await lockInLedger();
      expectOk(await sendParam(value(lock.id, { name: 'alarmLevel', value: '2' })));
      const [row] = await eventually(async () => {
        const rows = await database.db
          .select()
          .from(opLog)
          .where(and(eq(opLog.userId, sender.id), eq(opLog.url, urlOf(SEND_PARAM))));
        // Completed with its result after the answer.
        const mine = rows.filter((r) => r.methodArgs?.includes(lock.id) && r.resultCode !== null);
        return mine.length > 0 ? mine : undefined;
      });
      expect(row).toMatchObject({
        methodName: 'commands/deviceCommand/sendParam',
        methodType: 'POST',
        userName: sender.name,
        resultCode: ResultCode.Ok,
      });
      expect(JSON.parse(row!.methodArgs!)).toEqual({
        kind: 'value',
        deviceId: lock.id,
        name: 'alarmLevel',
        value: '2',
      });
    });

    it('needs the send key: 403 for a reader, and nothing is sent', async () => {
      const lock = await lockInLedger();
      const reader = await t.createStaff({ permissions: [Permission.DeviceCommandRead] });
      const readerToken = await t.signIn(reader.name, reader.password);
      expectCode(await sendParam(value(lock.id), readerToken), ResultCode.Forbidden);
      expect(await commandsOf(lock.id)).toEqual([]);
      const fetched = await call(api.deviceCommand.queryPage, {
        query: { pageIndex: '1', pageSize: '10', deviceId: lock.id },
        as: readerToken,
      });
      expectOk(fetched);
    });
  });

  describe('remote control records', () => {
    it('lists the commands of one device when asked by its id', async () => {
      const one = await lockInLedger();
      const other = await lockInLedger();
      for (const name of ['a', 'b']) {
        expectOk(await sendParam({ kind: 'value', deviceId: one.id, name, value: '1' }));
      }
      expectOk(await sendParam({ kind: 'value', deviceId: other.id, name: 'c', value: '1' }));

      const page = await records({ deviceId: one.id });
      expect(page.total).toBe(2);
      expect(page.rows.map((r) => [r.deviceId, r.name])).toEqual([
        [one.id, 'setParam b'],
        [one.id, 'setParam a'],
      ]);
      expect((await records({ deviceId: other.id })).rows.map((r) => r.name)).toEqual(['setParam c']);
      expect(await records({ deviceId: 'no-such-device' })).toEqual({ rows: [], total: 0 });
      // With the other filters.
      expect((await records({ deviceId: one.id, state: 'Success' })).total).toBe(0);
    });

    it('masks secret parameters: every one of setPassword, and any named like a password', async () => {
      const lock = await lockInLedger();
      const issued = await system!.services.commands.issue({
        deviceId: lock.id,
        cmdCode: 'setPassword',
        name: 'setPassword',
        params: { password: '20260101', slot: 2 },
        expireSeconds: 60,
        maxRetransmit: 0,
      });
      expectOk(await sendParam({ kind: 'value', deviceId: lock.id, name: 'door.pin', value: '4321' }));
      expectOk(await sendParam({ kind: 'value', deviceId: lock.id, name: 'spinSpeed', value: '5' }));

      const rows = (await records({ deviceId: lock.id })).rows;
      // (Stored as jsonb: the keys come back in the database's order.)
      expect(JSON.parse(rows.find((r) => r.id === issued.id)!.params)).toEqual({
        password: '******',
        slot: '******',
      });
      expect(rows.find((r) => r.name === 'setParam door.pin')?.params).toBe('{"door.pin":"******"}');
      expect(rows.find((r) => r.name === 'setParam spinSpeed')?.params).toBe('{"spinSpeed":5}');
      expect(JSON.stringify(rows)).not.toContain('20260101');
      expect(JSON.stringify(rows)).not.toContain('4321');
      // The lock is sent the real values.
      expect((await commandOf(issued.id)).params).toEqual({ password: '20260101', slot: 2 });
    });
  });

  describe('one-click lock replacement: the old password goes to the replacement lock', () => {
    it('is done once the replacement lock confirms the setPassword command', async () => {
      const old = await lockInLedger();
      const replacement = await lockInLedger(false);
      await database.db.insert(devicePassword).values({ deviceId: old.id, password: '88120466' });

      const started = await call(api.lockReplacement.start, {
        body: { deviceId: old.id, replacementId: replacement.id },
      });
      expectOk(started);
      const proceed = () =>
        call(api.lockReplacement.proceed, {
          body: { id: started.body.data.id },
        });

      // The replacement is registered by the procedure, which answers its credential, but is not
      // connected yet: its command waits.
      const first = await proceed();
      expectOk(first);
      expect(first.body.data.status).toBe('Pending');
      const credential = first.body.data.credential!;
      expect(credential).toMatchObject({ username: replacement.code, stationId: STATION });
      const step = first.body.data.steps[4]!;
      expect(step).toMatchObject({
        step: 'SendOldPassword',
        state: 'Pending',
        reason: 'awaitingLockAnswer',
        reasonParams: { command: step.commandId, state: 'Waitting' },
      });
      const command = await commandOf(step.commandId!);
      expect(command).toMatchObject({
        deviceId: replacement.id,
        cmdCode: PASSWORD_COMMAND.cmdCode,
        name: PASSWORD_COMMAND.name,
        params: { password: '88120466' },
        maxRetransmit: PASSWORD_COMMAND.maxRetransmit,
        staffId: sender.id,
        staffName: sender.name,
      });

      // That credential is written into the replacement; it connects and takes the resent command.
      const fleet = await simulatedLock({ code: replacement.code, secret: credential.secret });
      await stateBecomes(command.id, 'Success');
      expect(fleet.stats.resultsSent).toBeGreaterThanOrEqual(1);

      const completed = await proceed();
      expectOk(completed);
      expect(completed.body.data.status).toBe('Completed');
      expect(completed.body.data.credential).toBeNull();
      expect(completed.body.data.steps[4]).toMatchObject({
        state: 'Done',
        reason: null,
        reasonParams: null,
        commandId: command.id,
      });
      // One command, whose password shows nowhere.
      expect((await commandsOf(replacement.id)).map((c) => c.id)).toEqual([command.id]);
      const shown = (await records({ deviceId: replacement.id })).rows;
      expect(shown.map((r) => r.params)).toEqual(['{"password":"******"}']);
      for (const answer of [first.body, completed.body, shown]) {
        expect(JSON.stringify(answer)).not.toContain('88120466');
      }
      expect(JSON.stringify(completed.body)).not.toContain(credential.secret);
      // The lock has it: the ended command keeps it no more.
      expect((await commandOf(command.id)).params).toEqual({ password: '******' });
    });
  });
});
