import { randomBytes } from 'node:crypto';
import {
  api,
  type Envelope,
  Permission,
  type ProceededReplacement,
  type ReplacementRow,
  ResultCode,
} from '@uiot/contracts';
import { eq, inArray, or } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/http/app-error.ts';
import type { EventHandler } from '../src/infra/events/event-bus.ts';
import { opLog } from '../src/modules/admin/logs.schema.ts';
import { deviceCommand } from '../src/modules/commands/commands.schema.ts';
import { SERVER_OPERATOR } from '../src/modules/devices/device-operation.ts';
import {
  adjustValue,
  device,
  devicePassword,
  lockCode,
  lockReplacement,
} from '../src/modules/devices/devices.schema.ts';
import { PASSWORD_CLAIM_MS } from '../src/modules/devices/replacement-machine.ts';
import type { RunningSystem } from '../src/system.ts';
import { eventually, openTestApp, type TestApp, uniqueName, urlOf } from './support/app.ts';
import { databases } from './support/databases.ts';
import { mqttClient, startBusSystem } from './support/device-bus.ts';
import { insertDeviceRow, insertDeviceTypeRow, insertUnitRow } from './support/devices.ts';
import { expectCode, expectOk, orgHelpers } from './support/org.ts';

/** The ledger columns the replacement takes over from the old lock. */
const PLACE = {
  lng: '114.1234567',
  lat: '22.7654321',
  addr: 'Platform 2, north end',
  deptId: 'dept-7',
  staffId: 'admin', // a staff member who exists: the device answers to them
  kmInfo: 'K12+300',
  line: 'Tsuen Wan',
  track: 'T2',
  door: 'D4',
  graphId: 'graph-3',
  idxNo: 7,
  bayId: 'bay-1',
  adCode: '810000',
  sbbh: 'SB-0042',
};

/**
 * One-click lock replacement through the API. Here no device bus runs: the last step's `setPassword`
 * command cannot leave and stays Waitting, and the lock's answer is written as ingest would record it.
 * commands-api.test.ts runs the procedure with a simulated lock on the device bus.
 */
describe.each(databases)('one-click lock replacement ($kind)', (kind) => {
  let t: TestApp;
  const { get, post, tokenOf } = orgHelpers(() => t);
  let unitId: string;
  let otherUnitId: string;
  let typeId: string;

  beforeAll(async () => {
    t = await openTestApp(kind);
    unitId = await insertUnitRow(t.db);
    otherUnitId = await insertUnitRow(t.db);
    typeId = await insertDeviceTypeRow(t.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  const newDevice = (
    values: { regist?: boolean; mainDeviceId?: string | null; unitId?: string; code?: string } = {},
  ) => insertDeviceRow(t.db, { unitId, typeId, ...values });
  const start = (deviceId: string, replacementId: string, token?: string) =>
    post(api.lockReplacement.start, { deviceId, replacementId }, token);
  const proceed = (id: string) => post(api.lockReplacement.proceed, { id });
  const started = async (deviceId: string, replacementId: string) => {
    const response = await start(deviceId, replacementId);
    expectOk(response);
    return response.body.data;
  };
  const proceeded = async (id: string) => {
    const response = await proceed(id);
    expectOk(response);
    return response.body.data;
  };
  const byDevice = async (deviceId: string, token?: string) => {
    const response = await get(api.lockReplacement.getByDevice, { deviceId }, token);
    expectOk(response);
    return response.body.data;
  };
  const proceduresOf = (...ids: string[]) =>
    t.db
      .select({ id: lockReplacement.id })
      .from(lockReplacement)
      .where(or(inArray(lockReplacement.deviceId, ids), inArray(lockReplacement.replacementId, ids)));
  const deviceRow = async (id: string) => (await t.db.select().from(device).where(eq(device.id, id)))[0]!;
  const statesOf = (row: ReplacementRow) => row.steps.map((s) => s.state);
  /** The procedure a proceed answered, without the credential that answer may carry. */
  const procedureOf = ({ credential: _, ...row }: ProceededReplacement): ReplacementRow => row;
  const commandsTo = (deviceId: string) =>
    t.db
      .select()
      .from(deviceCommand)
      .where(eq(deviceCommand.deviceId, deviceId))
      .orderBy(deviceCommand.createdAt);
  /** The lock's answer (or the scheduler's verdict), recorded as ingest and the command service do. */
  const commandEnds = (id: string, state: 'Success' | 'NB_Timeout') =>
    t.db
      .update(deviceCommand)
      .set({ state, finishedAt: new Date(), nextCheckAt: null })
      .where(eq(deviceCommand.id, id));
  /** The old lock's permanent password. */
  const PASSWORD = '20268812';

  it('refuses an unregistered device with ReplacementNotRegistered and stores nothing', async () => {
    const old = await newDevice();
    const replacement = await newDevice();
    expectCode(await start(old, replacement), ResultCode.ReplacementNotRegistered);
    expect(await proceduresOf(old, replacement)).toEqual([]);
    expect(await byDevice(old)).toBeNull();
  });

  it('answers NotFound for a device not in the ledger', async () => {
    const replacement = await newDevice();
    expectCode(await start('no-such-device', replacement), ResultCode.NotFound);
  });

  it('refuses invalid replacements with ReplacementInvalid and stores nothing', async () => {
    const old = await newDevice({ regist: true });
    const registered = await newDevice({ regist: true });
    const main = await newDevice();
    const attached = await newDevice({ mainDeviceId: main });
    const taken = await newDevice();
    const otherOld = await newDevice({ regist: true });
    await started(otherOld, taken);

    for (const replacement of ['no-such-device', old, registered, attached, taken]) {
      expectCode(await start(old, replacement), ResultCode.ReplacementInvalid);
    }
    // The old lock of an unfinished procedure cannot be a replacement either.
    const unregisteredOld = await newDevice({ regist: true });
    const spare = await newDevice();
    await started(unregisteredOld, spare);
    await t.db.update(device).set({ regist: false }).where(eq(device.id, unregisteredOld));
    expectCode(await start(old, unregisteredOld), ResultCode.ReplacementInvalid);

    expect(await proceduresOf(old)).toEqual([]);
  });

  it('refuses a second start for a device in an unfinished procedure', async () => {
    const old = await newDevice({ regist: true });
    const first = await newDevice();
    const second = await newDevice();
    const procedure = await started(old, first);
    expectCode(await start(old, second), ResultCode.ReplacementInProgress);
    expectCode(await start(old, first), ResultCode.ReplacementInProgress);
    expect((await proceduresOf(old)).map((p) => p.id)).toEqual([procedure.id]);
  });

  it('runs the steps, stops at a missing password, then sends it and completes once the lock confirms', async () => {
    const old = await newDevice({ regist: true });
    await t.db.update(device).set(PLACE).where(eq(device.id, old));
    const replacement = await newDevice({ unitId: otherUnitId });
    const attached = await newDevice({ mainDeviceId: old });
    const rfids = [uniqueName('RFID').toUpperCase(), uniqueName('RFID').toUpperCase()];
    await t.db.insert(lockCode).values(rfids.map((rfidCode) => ({ deviceId: old, rfidCode })));
    await t.db.insert(adjustValue).values({ deviceId: old, name: 'angle', value: 1.5 });
    const untouched = await newDevice({ regist: true });
    await t.db.insert(lockCode).values({ deviceId: untouched, rfidCode: uniqueName('RFID').toUpperCase() });

    const created = await started(old, replacement);
    const oldName = (await deviceRow(old)).name;
    const replacementName = (await deviceRow(replacement)).name;
    expect(created).toMatchObject({
      deviceId: old,
      deviceName: oldName,
      replacementId: replacement,
      replacementName,
      status: 'NotExecuted',
      createdBy: 'admin',
    });
    expect(created.steps).toEqual(
      ['Replace', 'InformationTo', 'ReRegister', 'CancelRegistration', 'SendOldPassword'].map((step) => ({
        step,
        state: 'NotExecuted',
        reason: null,
        reasonParams: null,
        time: null,
        commandId: null,
      })),
    );
    // Starting changes nothing in the ledger.
    expect((await deviceRow(replacement)).unitId).toBe(otherUnitId);

    const failed = await proceeded(created.id);
    expect(failed.status).toBe('Failed');
    expect(statesOf(failed)).toEqual(['Done', 'Done', 'Done', 'Done', 'Failed']);
    expect(failed.steps[4]).toMatchObject({ step: 'SendOldPassword', reason: 'noOldPassword' });
    expect(failed.steps.every((s) => s.time !== null)).toBe(true);
    // A replacement without a code is registered without a credential, as in the ledger.
    expect(failed.credential).toBeNull();

    // Replace: the replacement took the old lock's place; the old lock is out of work.
    const newRow = await deviceRow(replacement);
    const oldRow = await deviceRow(old);
    expect(newRow).toMatchObject({ ...PLACE, unitId, stationId: oldRow.stationId });
    expect(oldRow.noWorking).toBe(true);
    expect(newRow.noWorking).toBe(false);
    // InformationTo: lock codes, correction values and attached devices moved.
    const codes = await t.db.select().from(lockCode).where(inArray(lockCode.rfidCode, rfids));
    expect(codes.map((c) => c.deviceId)).toEqual([replacement, replacement]);
    const values = await t.db.select().from(adjustValue).where(eq(adjustValue.deviceId, replacement));
    expect(values.map((v) => [v.name, v.value])).toEqual([['angle', 1.5]]);
    expect(await t.db.select().from(adjustValue).where(eq(adjustValue.deviceId, old))).toEqual([]);
    expect((await deviceRow(attached)).mainDeviceId).toBe(replacement);
    const otherCodes = await t.db.select().from(lockCode).where(eq(lockCode.deviceId, untouched));
    expect(otherCodes).toHaveLength(1);
    // ReRegister and CancelRegistration.
    expect(newRow.regist).toBe(true);
    expect(newRow.registTime).not.toBeNull();
    expect(oldRow.regist).toBe(false);
    expect(oldRow.registTime).toBeNull();

    // With a password the step stores it for the replacement and sends it down to the replacement in a
    // setPassword command; the step waits for the lock to confirm it.
    await t.db.insert(devicePassword).values({ deviceId: old, password: PASSWORD });
    const pending = await proceeded(created.id);
    expect(pending.status).toBe('Pending');
    expect(statesOf(pending)).toEqual(['Done', 'Done', 'Done', 'Done', 'Pending']);
    const sent = pending.steps[4]!;
    expect(sent).toMatchObject({
      reason: 'awaitingLockAnswer',
      reasonParams: { command: sent.commandId, state: 'Waitting' },
    });
    const [command, ...moreCommands] = await commandsTo(replacement);
    expect(moreCommands).toEqual([]);
    expect(command).toMatchObject({
      id: sent.commandId,
      cmdCode: 'setPassword',
      params: { password: PASSWORD },
      state: 'Waitting',
      staffId: 'admin',
      staffName: 'admin',
      // No device bus here: the send could not leave, and will be tried again.
      sendFlag: false,
      failureCode: ResultCode.ServiceUnavailable,
    });
    // Done steps kept their time: they did not run again.
    expect(pending.steps.slice(0, 4)).toEqual(failed.steps.slice(0, 4));
    const [copied] = await t.db.select().from(devicePassword).where(eq(devicePassword.deviceId, replacement));
    expect(copied).toMatchObject({ password: PASSWORD, updatedBy: 'admin' });

    // Proceeding again looks at the command: still open, so still pending, and nothing is sent again.
    const again = await proceeded(created.id);
    expect(again.status).toBe('Pending');
    expect(statesOf(again)).toEqual(['Done', 'Done', 'Done', 'Done', 'Pending']);
    expect(again.steps[4]).toMatchObject({ reason: 'awaitingLockAnswer', commandId: sent.commandId });
    expect(again.steps.slice(0, 4)).toEqual(failed.steps.slice(0, 4));
    expect(await commandsTo(replacement)).toHaveLength(1);
    expect(
      await t.db.select().from(devicePassword).where(eq(devicePassword.deviceId, replacement)),
    ).toHaveLength(1);
    expect((await deviceRow(replacement)).registTime).toEqual(newRow.registTime);

    const asOld = await byDevice(old);
    const asReplacement = await byDevice(replacement);
    expect(asOld).toEqual(procedureOf(again));
    expect(asReplacement).toEqual(procedureOf(again));
    expect(await byDevice(untouched)).toBeNull();

    // While pending the procedure is unfinished: the replacement (now registered) cannot start another.
    expectCode(await start(replacement, await newDevice()), ResultCode.ReplacementInProgress);

    // The replacement confirms the password: the step is done and the procedure complete.
    await commandEnds(sent.commandId!, 'Success');
    const completed = await proceeded(created.id);
    expect(completed.status).toBe('Completed');
    expect(completed.steps[4]).toMatchObject({
      state: 'Done',
      reason: null,
      reasonParams: null,
      commandId: sent.commandId,
    });
    expect(completed.steps.slice(0, 4)).toEqual(failed.steps.slice(0, 4));
    expect(await commandsTo(replacement)).toHaveLength(1);
    expectCode(await proceed(created.id), ResultCode.ReplacementFinished);

    // The password shows in no answer and no operation log.
    for (const row of [pending, again, completed, await byDevice(old)]) {
      expect(JSON.stringify(row)).not.toContain(PASSWORD);
    }
    const logged = await t.db.select({ args: opLog.methodArgs }).from(opLog);
    expect(logged.filter((r) => r.args?.includes(PASSWORD))).toEqual([]);
  });

  /** A procedure whose old lock has a permanent password, run up to its first setPassword command. */
  async function sentPassword() {
    const old = await newDevice({ regist: true });
    const replacement = await newDevice();
    await t.db.insert(devicePassword).values({ deviceId: old, password: PASSWORD });
    const created = await started(old, replacement);
    const pending = await proceeded(created.id);
    expect(pending.steps[4]).toMatchObject({ state: 'Pending', reason: 'awaitingLockAnswer' });
    return { id: created.id, replacement, commandId: pending.steps[4]!.commandId! };
  }

  it('fails the step when the command ends unconfirmed, and sends a new command on retry', async () => {
    const { id, replacement, commandId } = await sentPassword();
    await commandEnds(commandId, 'NB_Timeout');
    const failed = await proceeded(id);
    expect(failed.status).toBe('Failed');
    expect(failed.steps[4]).toMatchObject({
      state: 'Failed',
      reason: 'passwordNotTaken',
      reasonParams: { command: commandId, state: 'NB_Timeout' },
      commandId,
    });
    expect(await commandsTo(replacement)).toHaveLength(1);

    const retried = await proceeded(id);
    expect(retried.status).toBe('Pending');
    const next = retried.steps[4]!.commandId;
    expect(next).not.toBe(commandId);
    expect((await commandsTo(replacement)).map((c) => c.id)).toEqual([commandId, next]);
  });

  it('leaves a step alone while another call sends its command, and takes over a claim that died', async () => {
    const { id, replacement } = await sentPassword();
    const claimAt = async (time: Date) => {
      const [row] = await t.db
        .select({ steps: lockReplacement.steps })
        .from(lockReplacement)
        .where(eq(lockReplacement.id, id));
      const steps = (row!.steps as ReplacementRow['steps']).map((s) =>
        s.step === 'SendOldPassword'
          ? { ...s, reason: 'sendingPassword', reasonParams: null, commandId: null, time: time.toISOString() }
          : s,
      );
      await t.db.update(lockReplacement).set({ status: 'Pending', steps }).where(eq(lockReplacement.id, id));
    };

    await claimAt(new Date());
    const claimed = await proceeded(id);
    expect(claimed.steps[4]).toMatchObject({ state: 'Pending', reason: 'sendingPassword', commandId: null });
    expect(await commandsTo(replacement)).toHaveLength(1);

    await claimAt(new Date(Date.now() - PASSWORD_CLAIM_MS - 1_000));
    const takenOver = await proceeded(id);
    expect(takenOver.steps[4]).toMatchObject({ state: 'Pending', reason: 'awaitingLockAnswer' });
    expect(await commandsTo(replacement)).toHaveLength(2);
  });

  it('fails Replace when the replacement was registered meanwhile, and continues once it is not', async () => {
    const old = await newDevice({ regist: true });
    await t.db.update(device).set(PLACE).where(eq(device.id, old));
    const replacement = await newDevice({ unitId: otherUnitId });
    const created = await started(old, replacement);
    await t.db.update(device).set({ regist: true }).where(eq(device.id, replacement));

    const failed = await proceeded(created.id);
    expect(failed.status).toBe('Failed');
    expect(failed.steps[0]).toMatchObject({ step: 'Replace', state: 'Failed', reason: 'ReplacementInvalid' });
    expect(statesOf(failed).slice(1)).toEqual(['NotExecuted', 'NotExecuted', 'NotExecuted', 'NotExecuted']);
    expect((await deviceRow(replacement)).unitId).toBe(otherUnitId);
    expect((await deviceRow(old)).noWorking).toBe(false);

    await t.db.update(device).set({ regist: false }).where(eq(device.id, replacement));
    const retried = await proceeded(created.id);
    expect(statesOf(retried)).toEqual(['Done', 'Done', 'Done', 'Done', 'Failed']);
    expect(await deviceRow(replacement)).toMatchObject({ ...PLACE, unitId, regist: true });
  });

  it('refuses to proceed a completed procedure with ReplacementFinished', async () => {
    const old = await newDevice({ regist: true });
    const replacement = await newDevice();
    const created = await started(old, replacement);
    await t.db
      .update(lockReplacement)
      .set({ status: 'Completed', steps: created.steps.map((s) => ({ ...s, state: 'Done' })) })
      .where(eq(lockReplacement.id, created.id));
    expectCode(await proceed(created.id), ResultCode.ReplacementFinished);
    expect((await deviceRow(replacement)).regist).toBe(false);

    // A completed procedure no longer holds its devices.
    const next = await newDevice();
    expectOk(await start(old, next));
  });

  it('lets concurrent starts take a device once, and concurrent proceeds run each step once', async () => {
    const old = await newDevice({ regist: true });
    const [a, b] = [await newDevice(), await newDevice()];
    const starts = await Promise.all([start(old, a), start(old, b)]);
    expect(starts.map((r) => r.body.code).sort((x, y) => x - y)).toEqual([
      ResultCode.Ok,
      ResultCode.ReplacementInProgress,
    ]);
    const created = starts.find((r) => r.body.success)!.body.data;
    await t.db.insert(lockCode).values({ deviceId: old, rfidCode: uniqueName('RFID').toUpperCase() });
    await t.db.insert(devicePassword).values({ deviceId: old, password: PASSWORD });

    const results = await Promise.all([proceed(created.id), proceed(created.id)]);
    for (const response of results) expectOk(response);
    const stored = (await byDevice(old))!;
    expect(statesOf(stored)).toEqual(['Done', 'Done', 'Done', 'Done', 'Pending']);
    expect(stored.steps[4]).toMatchObject({ reason: 'awaitingLockAnswer' });
    expect(
      (await t.db.select().from(lockCode).where(eq(lockCode.deviceId, created.replacementId))).length,
    ).toBe(1);
    // The password went down once.
    expect((await commandsTo(created.replacementId)).map((c) => c.id)).toEqual([stored.steps[4]!.commandId]);
  });

  it('answers NotFound when proceeding an unknown procedure', async () => {
    expectCode(await proceed('no-such-procedure'), ResultCode.NotFound);
  });

  it('needs the replace-lock key to start and proceed, the read key to look', async () => {
    const old = await newDevice({ regist: true });
    const replacement = await newDevice();
    const reader = await tokenOf(await t.createStaff({ permissions: [Permission.DeviceRead] }));
    expectCode(await start(old, replacement, reader), ResultCode.Forbidden);
    expectCode(await post(api.lockReplacement.proceed, { id: 'x' }, reader), ResultCode.Forbidden);
    expect(await proceduresOf(old)).toEqual([]);

    const replacer = await t.createStaff({
      permissions: [Permission.DeviceReplaceLock],
      deviceTypes: [typeId],
    });
    const response = await start(old, replacement, await tokenOf(replacer));
    expectOk(response);
    expect(response.body.data.createdBy).toBe(replacer.name);
    expect((await byDevice(old, reader))?.id).toBe(response.body.data.id);
  });

  /** A lock with a code: the broker / TcpDirect username its credential is issued under. */
  const codedLock = async (prefix: string) => {
    const code = `${prefix}-${randomBytes(3).toString('hex')}`;
    return { code, id: await newDevice({ code }) };
  };

  it("issues the replacement's credential once at ReRegister and withdraws the old lock's, after each commit", async () => {
    const credentials = t.services.deviceCredentials;
    const old = await codedLock('OLD');
    const oldCredential = (await t.services.devices.ledger.register(old.id, SERVER_OPERATOR))!;
    const replacement = await codedLock('NEW');
    await t.db.insert(devicePassword).values({ deviceId: old.id, password: PASSWORD });

    // What a broker learns when it hears of a change: the credential as committed (authenticated on
    // another connection, so an announcement made before the commit would find the earlier state).
    const heard: Promise<{ code: string; issued: boolean; authenticates: boolean }>[] = [];
    const listener: EventHandler<'credential.changed'> = ({ code, secret }) => {
      const who = secret
        ? credentials.authenticate(code, secret)
        : credentials.authenticate(old.code, oldCredential.secret);
      heard.push(who.then((device) => ({ code, issued: secret !== null, authenticates: device !== null })));
    };
    const stopListening = t.services.events.subscribe('credential.changed', 'test', listener);
    const created = await started(old.id, replacement.id);
    let answered: ProceededReplacement;
    try {
      answered = await proceeded(created.id);
    } finally {
      stopListening();
    }
    expect(statesOf(answered)).toEqual(['Done', 'Done', 'Done', 'Done', 'Pending']);
    expect(await Promise.all(heard)).toEqual([
      { code: replacement.code, issued: true, authenticates: true },
      { code: old.code, issued: false, authenticates: false },
    ]);

    // The replacement signs in with what the answer carries, under the old lock's station; the old lock
    // no longer signs in.
    const credential = answered.credential!;
    expect(credential).toEqual({
      username: replacement.code,
      stationId: (await deviceRow(old.id)).stationId,
      secret: expect.any(String),
      // The replacement's own offline-PIN secret (PINs of the old lock do not open it).
      pinSecret: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
    expect(await credentials.authenticate(replacement.code, credential.secret)).toMatchObject({
      deviceId: replacement.id,
      code: replacement.code,
    });
    expect(await credentials.authenticate(old.code, oldCredential.secret)).toBeNull();

    // Shown this once: proceeding again and reading the procedure never show it; it is stored nowhere.
    const again = await proceeded(created.id);
    expect(again.credential).toBeNull();
    expect(await credentials.authenticate(replacement.code, credential.secret)).not.toBeNull();
    expect(JSON.stringify(await byDevice(replacement.id))).not.toContain(credential.secret);
    const stored = await t.db.select().from(lockReplacement).where(eq(lockReplacement.id, created.id));
    expect(JSON.stringify(stored)).not.toContain(credential.secret);
    const proceedLogs = await eventually(async () => {
      const rows = await t.db
        .select()
        .from(opLog)
        .where(eq(opLog.methodName, 'devices/lockReplacement/proceed'));
      return rows.length >= 2 ? rows : undefined;
    });
    expect(JSON.stringify(proceedLogs)).not.toContain(credential.secret);
    expect(JSON.stringify(await t.db.select().from(opLog))).not.toContain(credential.secret);
  });

  it('answers the issued credential even when sending the password down then fails', async () => {
    const old = await codedLock('OLD');
    await t.services.devices.ledger.register(old.id, SERVER_OPERATOR);
    const replacement = await codedLock('NEW');
    await t.db.insert(devicePassword).values({ deviceId: old.id, password: PASSWORD });
    const created = await started(old.id, replacement.id);

    const answered = await t.services.devices.replacements.proceed(created.id, {
      staff: { id: 'admin', name: 'admin' },
      operator: SERVER_OPERATOR,
      commands: {
        issue: () => Promise.reject(new AppError(ResultCode.ServiceUnavailable)),
        stateOf: (tx, id) => t.services.commands.stateOf(tx, id),
      },
      credentials: t.services.deviceCredentials,
    });
    expect(answered.status).toBe('Failed');
    expect(answered.steps[4]).toMatchObject({ state: 'Failed', reason: 'ServiceUnavailable' });
    expect(answered.credential?.username).toBe(replacement.code);
    expect(
      await t.services.deviceCredentials.authenticate(replacement.code, answered.credential!.secret),
    ).not.toBeNull();

    // Without a credential to hand over, the failure is the answer, as before.
    await expect(
      t.services.devices.replacements.proceed(created.id, {
        staff: { id: 'admin', name: 'admin' },
        operator: SERVER_OPERATOR,
        commands: {
          issue: () => Promise.reject(new AppError(ResultCode.ServiceUnavailable)),
          stateOf: (tx, id) => t.services.commands.stateOf(tx, id),
        },
        credentials: t.services.deviceCredentials,
      }),
    ).rejects.toMatchObject({ code: ResultCode.ServiceUnavailable });
  });

  describe('on the device bus', () => {
    let system: (RunningSystem & { removeDir(): void }) | null = null;
    const clients: MqttClient[] = [];

    beforeAll(async () => {
      system = await startBusSystem(t.database);
    });
    afterAll(async () => {
      await Promise.all(clients.map((client) => client.endAsync(true).catch(() => undefined)));
      await system?.stop();
      system?.removeDir();
    });

    const lockOnBus = async (code: string, secret: string, clientId: string) => {
      const client = await mqttClient(system!.deviceBus.mqttUrl, code, secret, clientId);
      clients.push(client);
      return client;
    };

    it('connects the replacement with the answered credential and disconnects the old lock', async () => {
      const old = await codedLock('OLD');
      const oldCredential = (await system!.services.devices.ledger.register(old.id, SERVER_OPERATOR))!;
      const replacement = await codedLock('NEW');
      const oldLock = await lockOnBus(old.code, oldCredential.secret, `old-${old.code}`);
      const disconnected = new Promise<void>((resolve) => oldLock.once('close', () => resolve()));
      const token = await tokenOf(
        await t.createStaff({ permissions: [Permission.DeviceReplaceLock], deviceTypes: [typeId] }),
      );

      const created = await started(old.id, replacement.id);
      const response = await system!.app.inject({
        method: 'POST',
        url: urlOf(api.lockReplacement.proceed),
        headers: { authorization: `Bearer ${token}` },
        payload: { id: created.id },
      });
      const answer = response.json<Envelope<ProceededReplacement>>();
      expect(answer.success).toBe(true);
      expect(statesOf(answer.data).slice(0, 4)).toEqual(['Done', 'Done', 'Done', 'Done']);

      await disconnected;
      await expect(
        mqttClient(system!.deviceBus.mqttUrl, old.code, oldCredential.secret, `old-again-${old.code}`),
      ).rejects.toThrow();
      const credential = answer.data.credential!;
      const newLock = await lockOnBus(credential.username, credential.secret, `new-${replacement.code}`);
      expect(newLock.connected).toBe(true);
    });
  });
});
