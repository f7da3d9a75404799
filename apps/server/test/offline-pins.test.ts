import { randomBytes } from 'node:crypto';
import {
  api,
  builtInAlarmKey,
  type Endpoint,
  type EndpointBody,
  type EndpointResult,
  Permission,
  PIN_MASK,
  ResultCode,
  translateResult,
} from '@uiot/contracts';
import { derivePin, LOCKOUT_AFTER_FAILURES, localHour } from '@uiot/device-protocol';
import { startFleet } from '@uiot/simulator';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STATION } from '../src/lib/station.ts';
import { waitFor } from '../src/lib/test-support.ts';
import { deviceAlarm } from '../src/modules/alarms/alarms.schema.ts';
import { deviceCommand } from '../src/modules/commands/commands.schema.ts';
import { SERVER_OPERATOR } from '../src/modules/devices/device-operation.ts';
import { device } from '../src/modules/devices/devices.schema.ts';
import { deviceRuntime } from '../src/modules/iot/iot.schema.ts';
import { STATION_UTC_OFFSET_MINUTES } from '../src/modules/pins/pin-rules.ts';
import { offlinePin } from '../src/modules/pins/pins.schema.ts';
import {
  lockTask,
  lockTaskItem,
  lockTaskOperator,
  operationRecord,
} from '../src/modules/tasks/tasks.schema.ts';
import {
  type CallResult,
  callEndpoint,
  type EndpointCallOptions,
  type TestStaff,
  uniqueName,
} from './support/app.ts';
import { databases } from './support/databases.ts';
import { busSuite, CHIRPSTACK_PASSWORD, simulatedLock as simulatedLockOf } from './support/device-bus.ts';
import { insertDeviceRow } from './support/devices.ts';
import { expectCode, expectOk } from './support/org.ts';

const STATION = DEFAULT_STATION.id;

/** The data of a successful answer. */
function ok<T>(response: CallResult<T>): T {
  expectOk(response);
  return response.body.data as T;
}
const HOUR = 3_600_000;

/**
 * Offline PINs on the whole server (docs/offline-pins.md): issued through the API only where the "who may
 * open" decision allows the user over the whole window, accepted once by a simulated lock that verifies it
 * offline, its use counted in the PIN list and recorded as an operation record; a revoked PIN refused once
 * the lock has woken and confirmed; an erase code.
 */
describe.each(databases)('offline PINs ($kind)', ({ open }) => {
  const bus = busSuite(open, { commandRetransmitSeconds: 1 });
  let generator: TestStaff;
  let maintainer: TestStaff;
  let token: string;

  beforeAll(async () => {
    generator = await bus.t.createStaff({
      permissions: [Permission.PinGenerate, Permission.PinRead, Permission.PinRevoke],
      deviceTypes: [bus.fixtures.typeId],
    });
    // The PIN's user holds the device type's grant; a task or an authorisation decides the rest.
    maintainer = await bus.t.createStaff({ permissions: [], deviceTypes: [bus.fixtures.typeId] });
    token = await bus.t.signIn(generator.name, generator.password);
  });

  const call = <E extends Endpoint>(
    endpoint: E,
    input: EndpointCallOptions<E> = {},
  ): Promise<CallResult<EndpointResult<E>>> => callEndpoint(bus.system.app, endpoint, { ...input, token });

  /** A registered lock with its broker secret and PIN secret, as the installer provisions it. */
  async function lockInLedger() {
    const code = `P-${randomBytes(3).toString('hex')}`;
    const id = await insertDeviceRow(bus.database.db, {
      ...bus.fixtures,
      code,
      name: uniqueName('Tunnel door'),
    });
    const credential = (await bus.system.services.devices.ledger.register(id, SERVER_OPERATOR))!;
    return { id, code, secret: credential.secret, pinSecret: credential.pinSecret };
  }

  const simulatedLock = (lock: { code: string; secret: string; pinSecret: string }) =>
    simulatedLockOf(bus.system.deviceBus.mqttUrl, { stationId: STATION, ...lock }, bus.fleets, 13);

  /** An approved lock task for the maintainer on the lock, running from an hour ago for `hours`. */
  async function taskFor(staffId: string, deviceId: string, hours = 5) {
    const name = uniqueName('Tunnel inspection');
    const now = Date.now();
    const [row] = await bus.database.db
      .insert(lockTask)
      .values({
        name,
        state: 'Execute',
        startTime: new Date(now - HOUR),
        endTime: new Date(now + hours * HOUR),
        creatorId: 'admin',
        creatorName: 'admin',
      })
      .returning({ id: lockTask.id });
    await bus.database.db.insert(lockTaskOperator).values({ taskId: row!.id, staffId });
    await bus.database.db.insert(lockTaskItem).values({ taskId: row!.id, deviceId });
    return { id: row!.id, name };
  }

  /** A PIN for the maintainer: a once-PIN starting now (its window starts at the hour) unless `values` say. */
  const generatePin = (deviceId: string, values: Partial<EndpointBody<typeof api.pin.generate>> = {}) => {
    const now = new Date().toISOString();
    return call(api.pin.generate, {
      payload: {
        deviceId,
        userId: maintainer.id,
        type: 'once',
        startTime: now,
        endTime: now,
        weekdays: [],
        reason: 'Inspect the tunnel door',
        ...values,
      },
    });
  };
  const generateOnce = (deviceId: string) => generatePin(deviceId);
  /** A durable PIN (stored on the lock) from now for `hours`, generated for the maintainer. */
  const generateDurable = async (deviceId: string, hours: number, startsIn = 0) => {
    const now = Date.now() + startsIn;
    return ok(
      await generatePin(deviceId, {
        type: 'durable',
        algorithm: 'totp',
        startTime: new Date(now).toISOString(),
        endTime: new Date(now + hours * HOUR).toISOString(),
        reason: 'Standing access for the pump room',
      }),
    );
  };

  /** The lock's one operation record, once it is there. */
  async function theRecordOf(deviceId: string) {
    const records = () =>
      bus.database.db.select().from(operationRecord).where(eq(operationRecord.deviceId, deviceId));
    await waitFor(async () => (await records()).length === 1, 10_000, 'the opening recorded');
    return (await records())[0]!;
  }

  const pinRow = async (id: string) => {
    const page = ok(await call(api.pin.queryPage, { query: { pageIndex: 1, pageSize: 100 } }));
    return page.rows.find((row) => row.id === id);
  };

  it('refuses a user no task or authorisation allows, with the decision reason, and keeps nothing', async () => {
    const lock = await lockInLedger();
    const response = await generateOnce(lock.id);
    expectCode(response, ResultCode.OpenNotAuthorized);
    expect(response.body.message).toBe(translateResult(ResultCode.OpenNotAuthorized, 'zh-CN'));
    expect(await bus.database.db.select().from(offlinePin).where(eq(offlinePin.deviceId, lock.id))).toEqual(
      [],
    );
  });

  it('refuses a task that ends inside the window: the decision covers the whole window', async () => {
    const lock = await lockInLedger();
    // The task ends now: a once-PIN's 2 hours are not covered.
    await taskFor(maintainer.id, lock.id, 0);
    const response = await generateOnce(lock.id);
    expect([ResultCode.OpenOutsideTaskWindow, ResultCode.OpenNotAuthorized]).toContain(response.body.code);
  });

  it('answers a field error for a time-period PIN in working hours, translated', async () => {
    const lock = await lockInLedger();
    await taskFor(maintainer.id, lock.id, 24 * 30);
    // Next Monday 10:00 station time.
    const day = 86_400_000;
    const local = Date.now() + STATION_UTC_OFFSET_MINUTES * 60_000;
    const daysToMonday = ((8 - (((Math.floor(local / day) + 3) % 7) + 1)) % 7) + 7;
    const monday10 =
      (Math.floor(local / day) + daysToMonday) * day + 10 * HOUR - STATION_UTC_OFFSET_MINUTES * 60_000;
    const response = await generatePin(lock.id, {
      type: 'timePeriod',
      startTime: new Date(monday10).toISOString(),
      endTime: new Date(monday10 + 4 * HOUR).toISOString(),
      reason: 'Night work',
    });
    expectCode(response, ResultCode.InvalidInput);
    expect(response.body.data).toEqual([
      expect.objectContaining({ path: 'startTime', message: expect.stringContaining('工作时间') }),
    ]);
    // A limit the server checks is named in the message (not a bare placeholder).
    const weeks = await generatePin(lock.id, {
      type: 'weekly',
      startTime: new Date(monday10).toISOString(),
      endTime: new Date(monday10 + 9 * 7 * day).toISOString(),
      weekdays: [1],
      reason: 'Night work',
    });
    expectCode(weeks, ResultCode.InvalidInput);
    expect(weeks.body.data).toEqual([{ path: 'endTime', message: '每周动态密码最多覆盖 7 周' }]);
  });

  it('issues a once-PIN the lock accepts once: the use shows in the list and the operation records', async () => {
    const lock = await lockInLedger();
    const task = await taskFor(maintainer.id, lock.id);
    const fleet = await simulatedLock(lock);

    const issued = ok(await generateOnce(lock.id));
    expect(issued.code).toMatch(/^\d{9}$/);
    expect(issued.pin).toMatchObject({
      type: 'once',
      code: PIN_MASK,
      useState: 'enabled',
      userId: maintainer.id,
      userName: maintainer.name,
      generatorName: generator.name,
      taskName: task.name,
      abilities: { revoke: true },
    });
    // The code is never kept nor listed.
    const [stored] = await bus.database.db.select().from(offlinePin).where(eq(offlinePin.id, issued.pin.id));
    expect(JSON.stringify(stored)).not.toContain(issued.code!);
    expect(JSON.stringify(await pinRow(issued.pin.id))).not.toContain(issued.code!);

    expect(fleet.enterPin(lock.code, issued.code!)).toMatchObject({ outcome: 'opened' });
    await waitFor(async () => (await pinRow(issued.pin.id))?.useCount === 1, 10_000, 'the use counted');
    const used = (await pinRow(issued.pin.id))!;
    expect(used).toMatchObject({ useState: 'expire', abilities: { revoke: false } });
    expect(used.usageTime).not.toBeNull();

    const record = await theRecordOf(lock.id);
    expect(record).toMatchObject({
      action: 'open',
      opMethod: 'pin',
      source: 'device',
      result: 'reported',
      staffId: maintainer.id,
      taskId: task.id,
      covered: true,
    });

    // Once only: the lock refuses it now.
    expect(fleet.enterPin(lock.code, issued.code!)).toMatchObject({ outcome: 'refused', reason: 'used' });
    // A second once-PIN of the same hour takes the next slot: another code.
    const second = ok(await generateOnce(lock.id));
    expect(second.code).not.toBe(issued.code);
  });

  it('records a use of a PIN the server never issued as uncovered', async () => {
    const lock = await lockInLedger();
    const fleet = await simulatedLock(lock);
    const forged = derivePin(Buffer.from(lock.pinSecret, 'hex'), {
      type: 'once',
      slot: 9,
      startHour: localHour(Date.now(), STATION_UTC_OFFSET_MINUTES),
    });
    expect(fleet.enterPin(lock.code, forged)).toMatchObject({ outcome: 'opened' });
    const record = await theRecordOf(lock.id);
    expect(record).toMatchObject({ opMethod: 'pin', covered: false, staffId: null });
  });

  it('revokes a PIN: pending deletion until the lock wakes and confirms, then the lock refuses it', async () => {
    const lock = await lockInLedger();
    await taskFor(maintainer.id, lock.id);
    const issued = ok(await generateOnce(lock.id));

    // The lock is asleep: the deletion waits.
    const revoked = ok(await call(api.pin.revoke, { query: { id: issued.pin.id } }));
    expect(revoked).toMatchObject({
      useState: 'disabled',
      pendingDeletion: true,
      revokedByName: generator.name,
    });
    expectCode(await call(api.pin.revoke, { query: { id: issued.pin.id } }), ResultCode.PinNotRevocable);

    // It wakes (connects and reports): the deletion goes out, the lock confirms.
    const fleet = await simulatedLock(lock);
    await waitFor(
      async () => (await pinRow(issued.pin.id))?.pendingDeletion === false,
      20_000,
      'deletion confirmed',
    );
    expect(fleet.enterPin(lock.code, issued.code!)).toMatchObject({ outcome: 'refused', reason: 'revoked' });
    const [row] = await bus.database.db.select().from(offlinePin).where(eq(offlinePin.id, issued.pin.id));
    expect(row!.useCount).toBe(0);
  });

  it('gives an erase code: the PINs starting by its hour are disabled, confirmed when the lock takes the code', async () => {
    const lock = await lockInLedger();
    await taskFor(maintainer.id, lock.id);
    const fleet = await simulatedLock(lock);
    const issued = ok(await generateOnce(lock.id));

    const erase = ok(await call(api.pin.eraseCode, { query: { deviceId: lock.id } }));
    expect(erase.code).toMatch(/^\d{9}$/);
    expect(erase.disabled).toBe(1);
    expect(await pinRow(issued.pin.id)).toMatchObject({ useState: 'disabled' });
    // New PINs start from the next hour.
    expectCode(await generateOnce(lock.id), ResultCode.PinStartsBeforeErase);

    expect(fleet.enterPin(lock.code, erase.code)).toMatchObject({ outcome: 'erased' });
    await waitFor(
      async () => (await pinRow(issued.pin.id))?.pendingDeletion === false,
      20_000,
      'erase confirmed',
    );
    expect(fleet.enterPin(lock.code, issued.code!)).toMatchObject({ outcome: 'refused' });
    const rows = await bus.database.db
      .select()
      .from(offlinePin)
      .where(and(eq(offlinePin.deviceId, lock.id), eq(offlinePin.useCount, 0)));
    expect(rows).toHaveLength(1);
  });

  it('disables the derived PINs of a lock whose PIN secret is replaced or withdrawn, not its stored ones', async () => {
    const { ledger } = bus.system.services.devices;
    for (const replace of [
      (id: string) => ledger.resetPinSecret(id, SERVER_OPERATOR),
      (id: string) => ledger.unregister(id, SERVER_OPERATOR),
    ]) {
      const lock = await lockInLedger();
      await taskFor(maintainer.id, lock.id);
      const derived = ok(await generateOnce(lock.id));
      const durable = await generateDurable(lock.id, 3);
      await replace(lock.id);
      await waitFor(
        async () => (await pinRow(derived.pin.id))?.useState === 'disabled',
        10_000,
        'the derived PIN disabled',
      );
      // Nothing to send the lock: it refuses the PIN once it holds its new secret.
      expect(await pinRow(derived.pin.id)).toMatchObject({ pendingDeletion: false });
      expect(await pinRow(durable.pin.id)).toMatchObject({ useState: 'enabled' });
    }
  });

  const pendingCodeOf = async (id: string) =>
    (await bus.database.db.select().from(offlinePin).where(eq(offlinePin.id, id)))[0]!.pendingCode;

  it("draws a durable PIN's code when its lock wakes, shows it once to its generator; it opens until revoked", async () => {
    const lock = await lockInLedger();
    await taskFor(maintainer.id, lock.id, 24 * 10);
    const issued = await generateDurable(lock.id, 7 * 24);
    expect(issued.code).toBeNull();
    expect(issued.pin).toMatchObject({
      type: 'durable',
      storage: 'pending',
      useState: 'enabled',
      abilities: { showCode: false },
    });
    // While the lock sleeps, no code exists.
    await bus.system.services.pins.refreshWatched();
    expect(await pendingCodeOf(issued.pin.id)).toBeNull();
    const [early] = await bus.database.db.select().from(offlinePin).where(eq(offlinePin.id, issued.pin.id));
    expect(early!.deliveryCommandId).toBeNull();
    expectCode(await call(api.pin.showCode, { query: { id: issued.pin.id } }), ResultCode.PinCodeNotDrawn);

    // The lock wakes: the code is drawn and sent, the lock confirms; the server keeps the code until the
    // generator has seen it.
    const fleet = await simulatedLock(lock);
    await waitFor(async () => (await pinRow(issued.pin.id))?.storage === 'stored', 20_000, 'PIN stored');
    expect(await pendingCodeOf(issued.pin.id)).toMatch(/^[1-9]\d{8}$/);
    expect(await pinRow(issued.pin.id)).toMatchObject({ code: PIN_MASK, abilities: { showCode: true } });

    // Only to its generator, once.
    const other = await bus.t.createStaff({
      permissions: [Permission.PinGenerate, Permission.PinRead],
      deviceTypes: [bus.fixtures.typeId],
    });
    const otherToken = await bus.t.signIn(other.name, other.password);
    const byOther = await callEndpoint(bus.system.app, api.pin.showCode, {
      query: { id: issued.pin.id },
      token: otherToken,
    });
    expectCode(byOther, ResultCode.PinCodeNotYours);
    const shown = ok(await call(api.pin.showCode, { query: { id: issued.pin.id } }));
    expect(shown.code).toMatch(/^[1-9]\d{8}$/);
    expect(shown.pin).toMatchObject({ code: PIN_MASK, abilities: { showCode: false } });
    expect(await pendingCodeOf(issued.pin.id)).toBeNull();
    expectCode(await call(api.pin.showCode, { query: { id: issued.pin.id } }), ResultCode.PinCodeShown);

    const [row] = await bus.database.db.select().from(offlinePin).where(eq(offlinePin.id, issued.pin.id));
    const [delivery] = await bus.database.db
      .select()
      .from(deviceCommand)
      .where(eq(deviceCommand.id, row!.deliveryCommandId!));
    expect(delivery).toMatchObject({ state: 'Success' });
    expect(JSON.stringify(delivery!.params)).not.toContain(shown.code);

    expect(fleet.enterPin(lock.code, shown.code)).toMatchObject({ outcome: 'opened' });
    expect(fleet.enterPin(lock.code, shown.code)).toMatchObject({ outcome: 'opened' });
    await waitFor(async () => (await pinRow(issued.pin.id))?.useCount === 2, 10_000, 'both uses counted');
    expect(await pinRow(issued.pin.id)).toMatchObject({ useState: 'enabled' });

    ok(await call(api.pin.revoke, { query: { id: issued.pin.id } }));
    await waitFor(
      async () => (await pinRow(issued.pin.id))?.pendingDeletion === false,
      20_000,
      'deletion confirmed',
    );
    expect(fleet.enterPin(lock.code, shown.code)).toMatchObject({ outcome: 'refused' });
  });

  it("keeps a durable PIN's code shown before its lock confirmed until the lock holds it", async () => {
    const lock = await lockInLedger();
    await taskFor(maintainer.id, lock.id, 48);
    const issued = await generateDurable(lock.id, 24);
    // The lock is heard (its report reaches the server) but does not answer the setPin yet.
    await bus.system.services.pins.devicesHeard([{ deviceId: lock.id }]);
    const drawn = await pendingCodeOf(issued.pin.id);
    expect(drawn).toMatch(/^[1-9]\d{8}$/);
    // A second report while the setPin is under way draws no other code.
    await bus.system.services.pins.devicesHeard([{ deviceId: lock.id }]);
    expect(await pendingCodeOf(issued.pin.id)).toBe(drawn);

    const shown = ok(await call(api.pin.showCode, { query: { id: issued.pin.id } }));
    expect(shown.code).toBe(drawn);
    expect(await pendingCodeOf(issued.pin.id)).toBe(drawn);
    // The lock wakes for good: it is sent the same code, confirms, and the code is forgotten.
    const fleet = await simulatedLock(lock);
    await waitFor(async () => (await pinRow(issued.pin.id))?.storage === 'stored', 20_000, 'PIN stored');
    expect(await pendingCodeOf(issued.pin.id)).toBeNull();
    expect(fleet.enterPin(lock.code, shown.code)).toMatchObject({ outcome: 'opened' });
  });

  it('disables with an erase code every PIN the lock holds, a stored one starting later included', async () => {
    const lock = await lockInLedger();
    await taskFor(maintainer.id, lock.id, 24 * 10);
    const later = await generateDurable(lock.id, 24, 2 * HOUR);
    const fleet = await simulatedLock(lock);
    await waitFor(async () => (await pinRow(later.pin.id))?.storage === 'stored', 20_000, 'PIN stored');

    const erase = ok(await call(api.pin.eraseCode, { query: { deviceId: lock.id } }));
    expect(erase.disabled).toBe(1);
    expect(await pinRow(later.pin.id)).toMatchObject({ useState: 'disabled', pendingDeletion: true });
    expect(fleet.enterPin(lock.code, erase.code)).toMatchObject({ outcome: 'erased' });
    await waitFor(
      async () => (await pinRow(later.pin.id))?.pendingDeletion === false,
      20_000,
      'erase confirmed',
    );
  });

  it('forgets the code of a stored PIN whose window ended before its lock took it', async () => {
    const lock = await lockInLedger();
    await taskFor(maintainer.id, lock.id, 48);
    const now = Date.now();
    const issued = await generateDurable(lock.id, 24);
    // The lock was heard once (the code drawn) and never took the PIN: the code waits for it while the PIN
    // may still be used…
    await bus.system.services.pins.devicesHeard([{ deviceId: lock.id }]);
    const drawn = await pendingCodeOf(issued.pin.id);
    expect(drawn).toMatch(/^[1-9]\d{8}$/);
    await bus.system.services.pins.refreshWatched();
    expect(await pendingCodeOf(issued.pin.id)).toBe(drawn);
    // …and is dropped once the window has ended.
    await bus.database.db
      .update(offlinePin)
      .set({ endTime: new Date(now - 1_000) })
      .where(eq(offlinePin.id, issued.pin.id));
    await bus.system.services.pins.refreshWatched();
    expect(await pendingCodeOf(issued.pin.id)).toBeNull();
    expect(await pinRow(issued.pin.id)).toMatchObject({ storage: 'pending' });
  });

  it('takes the confirmation of a stored PIN whose lock answered before its command was tied to it', async () => {
    const lock = await lockInLedger();
    await taskFor(maintainer.id, lock.id, 48);
    await simulatedLock(lock);
    // Its first report has been handled: the next one is an hour away.
    await waitFor(
      async () =>
        (await bus.database.db.select().from(deviceRuntime).where(eq(deviceRuntime.deviceId, lock.id)))
          .length === 1,
      10_000,
      'the lock heard',
    );
    const issued = await generateDurable(lock.id, 24);
    // The setPin goes out and is answered by the lock (and the answer handled) before the PIN is told its
    // command.
    const commands = bus.system.services.commands;
    const issue = commands.issue;
    commands.issue = async (input) => {
      const command = await issue.call(commands, input);
      if (input.cmdCode === 'setPin') {
        await waitFor(
          async () =>
            (await bus.database.db.select().from(deviceCommand).where(eq(deviceCommand.id, command.id)))[0]
              ?.state === 'Success',
          10_000,
          'the lock answers first',
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      return command;
    };
    try {
      await bus.system.services.pins.devicesHeard([{ deviceId: lock.id }]);
    } finally {
      commands.issue = issue;
    }
    expect(await pinRow(issued.pin.id)).toMatchObject({ storage: 'stored' });
  });

  it('sends a PIN by the custom algorithm to a LoRaWAN lock as a downlink: the lock keeps it and opens once', async () => {
    const code = `LR-${randomBytes(3).toString('hex')}`;
    const devEui = randomBytes(8).toString('hex').toUpperCase();
    const id = await insertDeviceRow(bus.database.db, {
      ...bus.fixtures,
      code,
      devEui,
      name: uniqueName('Tunnel lock'),
    });
    await bus.database.db.update(device).set({ netType: 'LoRaWan' }).where(eq(device.id, id));
    await bus.system.services.devices.ledger.register(id, SERVER_OPERATOR);
    await taskFor(maintainer.id, id);
    const fleet = startFleet({
      devices: [{ stationId: STATION, code, devEui, protocol: 'chirpstack' }],
      mqttUrl: bus.system.deviceBus.mqttUrl,
      chirpstack: { username: 'chirpstack', password: CHIRPSTACK_PASSWORD, applicationId: 'app-pins' },
      mode: { kind: 'behaviour', heartbeatSeconds: 3600, behaviour: { offlineMeanSeconds: 1e9 } },
      seed: 17,
    });
    bus.fleets.push(fleet);
    await fleet.ready;
    // The server sends downlinks to the application the lock's uplinks come from: wait until it was heard.
    await waitFor(
      async () =>
        (await bus.database.db.select().from(deviceRuntime).where(eq(deviceRuntime.deviceId, id))).length > 0,
      10_000,
      'the lock heard',
    );
    const issued = ok(await generatePin(id, { algorithm: 'lorawan', reason: 'Tunnel door' }));
    expect(issued.pin).toMatchObject({
      algorithm: 'lorawan',
      storage: expect.stringMatching(/pending|stored/),
    });
    await waitFor(async () => (await pinRow(issued.pin.id))?.storage === 'stored', 20_000, 'PIN stored');
    expect(fleet.enterPin(code, issued.code!)).toMatchObject({ outcome: 'opened' });
    await waitFor(async () => (await pinRow(issued.pin.id))?.useCount === 1, 10_000, 'the use counted');
    expect(await pinRow(issued.pin.id)).toMatchObject({ useState: 'expire' });
    expect(fleet.enterPin(code, issued.code!)).toMatchObject({ outcome: 'refused' });
  });

  it('sends PINs by the custom algorithm to LoRaWAN locks only', async () => {
    const lock = await lockInLedger();
    await taskFor(maintainer.id, lock.id);
    const response = await generatePin(lock.id, { algorithm: 'lorawan', reason: 'Tunnel door' });
    expectCode(response, ResultCode.InvalidInput);
    expect(response.body.data).toEqual([expect.objectContaining({ path: 'algorithm' })]);
  });

  it('raises the built-in alarm when wrong PINs lock a keypad out', async () => {
    const lock = await lockInLedger();
    const fleet = await simulatedLock(lock);
    for (let i = 0; i < LOCKOUT_AFTER_FAILURES; i++) fleet.enterPin(lock.code, '000000000');
    await waitFor(
      async () =>
        (await bus.database.db.select().from(deviceAlarm).where(eq(deviceAlarm.deviceId, lock.id))).some(
          (alarm) => alarm.ruleName === builtInAlarmKey('pinLockout'),
        ),
      10_000,
      'the lock-out alarm',
    );
  });

  it('lists the PINs a user asks for: by lock and use state', async () => {
    const lock = await lockInLedger();
    await taskFor(maintainer.id, lock.id);
    const kept = ok(await generateOnce(lock.id));
    const dropped = ok(await generateOnce(lock.id));
    ok(await call(api.pin.revoke, { query: { id: dropped.pin.id } }));
    const page = (useState: 'enabled' | 'disabled' | 'expire') =>
      call(api.pin.queryPage, { query: { pageIndex: 1, pageSize: 10, deviceId: lock.id, useState } });
    expect(ok(await page('enabled')).rows.map((r) => r.id)).toEqual([kept.pin.id]);
    expect(ok(await page('disabled')).rows.map((r) => r.id)).toEqual([dropped.pin.id]);
    expect(ok(await page('expire')).total).toBe(0);
  });
});
