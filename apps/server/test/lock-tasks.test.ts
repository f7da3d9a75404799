import { api, type EndpointBody, Permission, ResultCode, translateValidation } from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockTask, lockTaskItem } from '../src/modules/tasks/tasks.schema.ts';
import { openTestApp, type TestApp, uniqueName } from './support/app.ts';
import { databases } from './support/databases.ts';
import { insertDeviceRow, insertDeviceTypeRow, insertUnitRow } from './support/devices.ts';
import { expectCode, expectInvalid, expectOk, fieldIssues, orgHelpers } from './support/org.ts';

type Form = EndpointBody<typeof api.lockTask.save>;

const HOUR = 3_600_000;
const WRITER = [
  Permission.LockTaskRead,
  Permission.LockTaskCreate,
  Permission.LockTaskUpdate,
  Permission.LockTaskDelete,
];

/** Lock tasks (/task/lock-task) through the API, on the real database: the lifecycle of docs/lock-tasks.md. */
describe.each(databases)('lock tasks ($kind)', (kind) => {
  let t: TestApp;
  const { get, post, createDepartment, staffIn, tokenOf } = orgHelpers(() => t);
  let devices: string[] = [];
  let creator = '';
  let creatorId = '';
  let auditor = '';
  let operatorId = '';
  let auditTeam = '';
  let safetyDivision = '';

  beforeAll(async () => {
    t = await openTestApp(kind);
    const unitId = await insertUnitRow(t.db);
    const typeId = await insertDeviceTypeRow(t.db);
    devices = [
      await insertDeviceRow(t.db, { unitId, typeId, name: uniqueName('Gate A') }),
      await insertDeviceRow(t.db, { unitId, typeId, name: uniqueName('Gate B') }),
    ];
    const writer = await staffIn(null, WRITER);
    creator = await tokenOf(writer);
    creatorId = writer.id;
    safetyDivision = await createDepartment(uniqueName('Safety division'));
    auditTeam = await createDepartment(uniqueName('Safety'), safetyDivision);
    auditor = await tokenOf(await staffIn(auditTeam, [Permission.LockTaskRead, Permission.LockTaskAudit]));
    operatorId = (await staffIn(null)).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const form = (extra: Partial<Form> = {}): Form => ({
    name: uniqueName('Replace cable'),
    startTime: new Date(Date.now() - HOUR).toISOString(),
    endTime: new Date(Date.now() + 4 * HOUR).toISOString(),
    operatorIds: [operatorId],
    items: [{ deviceId: devices[0]!, keyId: null }],
    ...extra,
  });
  const create = async (extra: Partial<Form> = {}) => {
    const response = await post(api.lockTask.save, form(extra), creator);
    expectOk(response);
    return response.body.data.id;
  };
  const task = async (id: string, token = creator) => {
    const response = await get(api.lockTask.getById, { id }, token);
    expectOk(response);
    return response.body.data;
  };
  const act =
    (endpoint: typeof api.lockTask.submit | typeof api.lockTask.pass | typeof api.lockTask.cancel) =>
    (id: string, token: string) =>
      get(endpoint, { id }, token);
  const submit = act(api.lockTask.submit);
  const pass = act(api.lockTask.pass);
  const cancel = act(api.lockTask.cancel);

  it('is written New with its operators and items, and says what its creator may do', async () => {
    const id = await create({
      items: [
        { deviceId: devices[1]!, keyId: null },
        { deviceId: devices[0]!, keyId: null },
      ],
    });
    const row = await task(id);
    expect(row).toMatchObject({
      state: 'New',
      authFlag: null,
      creatorId,
      operators: [{ id: operatorId }],
      taskSource: 'console',
      abilities: { update: true, submit: true, audit: false, cancel: true, forceEnd: false, delete: true },
    });
    expect(row.items.map((i) => i.deviceId)).toEqual([devices[1], devices[0]]);
    expect((await task(id, auditor)).abilities).toMatchObject({ update: false, submit: false, audit: false });
  });

  it('goes to audit, is passed by the auditor and executes; the creator cannot audit it', async () => {
    await t.setParam('TaskNeedAudit', 'true');
    const id = await create();
    expectOk(await submit(id, creator));
    expect(await task(id)).toMatchObject({ state: 'Audit', authFlag: 'Audit' });
    const toAudit = await get(
      api.lockTask.queryPage,
      { pageIndex: 1, pageSize: 50, scope: 'toAudit' },
      auditor,
    );
    expect(toAudit.body.data.rows.find((r) => r.id === id)?.abilities.audit).toBe(true);
    // The creator holds no audit key; the administrator does, and passes another's task.
    expectCode(await pass(id, creator), ResultCode.Forbidden);
    expectOk(await pass(id, auditor));
    const passed = await task(id);
    expect(passed).toMatchObject({ state: 'Execute', authFlag: 'Pass' });
    expect(passed.auditedByName).toBeTruthy();
    expect(passed.auditedAt).not.toBeNull();
    // Started: cancelling is refused, ending early is for lockTask.forceEnd.
    expectCode(await cancel(id, creator), ResultCode.LockTaskWrongState);
  });

  it('sends an edited approved task back to audit, and a rejection back to its creator with the reason', async () => {
    await t.setParam('TaskNeedAudit', 'true');
    const id = await create();
    expectOk(await submit(id, creator));
    expectOk(await pass(id, auditor));
    expectOk(await post(api.lockTask.update, { ...form({ name: 'Wider' }), id }, creator));
    expect(await task(id)).toMatchObject({ state: 'Update', authFlag: 'Audit', name: 'Wider' });
    expectOk(await post(api.lockTask.reject, { id, reason: 'Wrong gate' }, auditor));
    expect(await task(id)).toMatchObject({ state: 'New', authFlag: 'Reject', reason: 'Wrong gate' });
    // Only the creator edits.
    const other = await tokenOf(await staffIn(null, WRITER));
    expectCode(await post(api.lockTask.update, { ...form(), id }, other), ResultCode.LockTaskNotCreator);
  });

  it('keeps the work done on the locks an edit keeps', async () => {
    await t.setParam('TaskNeedAudit', 'true');
    const id = await create({
      items: [
        { deviceId: devices[0]!, keyId: null },
        { deviceId: devices[1]!, keyId: null },
      ],
    });
    expectOk(await submit(id, creator));
    expectOk(await pass(id, auditor));
    const done = new Date(Date.now() - 60_000);
    // The first lock was opened (its record uploaded) and the task went to a key.
    await t.db
      .update(lockTaskItem)
      .set({ uploadTime: done, toKeyTime: done })
      .where(eq(lockTaskItem.deviceId, devices[0]!));
    const progress = async () =>
      (await t.db.select().from(lockTaskItem).where(eq(lockTaskItem.taskId, id)))
        .map((i) => ({ deviceId: i.deviceId, uploadTime: i.uploadTime, toKeyTime: i.toKeyTime }))
        .sort((a, b) => (a.deviceId < b.deviceId ? -1 : 1));
    const before = await progress();
    expectOk(
      await post(
        api.lockTask.update,
        {
          ...form({
            name: 'Renamed',
            items: [
              { deviceId: devices[1]!, keyId: null },
              { deviceId: devices[0]!, keyId: null },
            ],
          }),
          id,
        },
        creator,
      ),
    );
    expectOk(await pass(id, auditor));
    expect(await progress()).toEqual(before);
    expect(before.find((i) => i.deviceId === devices[0])?.uploadTime).toEqual(done);
  });

  it('is approved at once without audits, waits for its start, and finishes at its end', async () => {
    await t.setParam('TaskNeedAudit', 'false');
    try {
      const id = await create({
        startTime: new Date(Date.now() + HOUR).toISOString(),
        endTime: new Date(Date.now() + 2 * HOUR).toISOString(),
      });
      expectOk(await submit(id, creator));
      expect(await task(id)).toMatchObject({ state: 'None', authFlag: null });
      // Its start comes: the time job starts it; its end comes: the job finishes it.
      await t.db
        .update(lockTask)
        .set({ startTime: new Date(Date.now() - 1000) })
        .where(eq(lockTask.id, id));
      await t.services.tasks.lockTasks.tick();
      expect((await task(id)).state).toBe('Execute');
      await t.db
        .update(lockTask)
        .set({ endTime: new Date(Date.now() - 500) })
        .where(eq(lockTask.id, id));
      await t.services.tasks.lockTasks.tick();
      const finished = await task(id);
      expect(finished).toMatchObject({ state: 'Finish', finishFlag: 'expired' });
      expect(finished.finishTime).not.toBeNull();
      expect(finished.abilities).toMatchObject({ update: false, forceEnd: false, delete: false });
    } finally {
      await t.setParam('TaskNeedAudit', 'true');
    }
  });

  it('is audited by its named auditor only, else by its audit team or a team below it', async () => {
    await t.setParam('TaskNeedAudit', 'true');
    const submitted = async (extra: Partial<Form>) => {
      const id = await create(extra);
      expectOk(await submit(id, creator));
      return id;
    };
    // The person named must be able to audit it: holding lockTask.audit, not its creator nor an operator.
    for (const auditorId of [operatorId, creatorId]) {
      expectInvalid(await post(api.lockTask.save, form({ auditorId }), creator), ['auditorId']);
    }
    const colleague = await staffIn(null, [Permission.LockTaskRead, Permission.LockTaskAudit]);
    expectInvalid(
      await post(api.lockTask.save, form({ auditorId: colleague.id, operatorIds: [colleague.id] }), creator),
      ['auditorId'],
    );
    const named = await submitted({ auditorId: colleague.id });
    expectCode(await pass(named, auditor), ResultCode.LockTaskNotAuditor);
    expect((await task(named, auditor)).abilities.audit).toBe(false);
    expectOk(await pass(named, await tokenOf(colleague)));
    // An operator who may audit does not audit the task they are to carry out.
    const auditingOperator = await staffIn(auditTeam, [Permission.LockTaskRead, Permission.LockTaskAudit]);
    const own = await submitted({ auditDeptId: auditTeam, operatorIds: [auditingOperator.id] });
    const operatorToken = await tokenOf(auditingOperator);
    expect((await task(own, operatorToken)).abilities.audit).toBe(false);
    expectCode(await pass(own, operatorToken), ResultCode.LockTaskOperatorAudit);
    const otherTeam = await submitted({ auditDeptId: await createDepartment(uniqueName('Track')) });
    expectCode(await pass(otherTeam, auditor), ResultCode.LockTaskNotAuditor);
    const aboveTeam = await submitted({ auditDeptId: safetyDivision });
    expect((await task(aboveTeam, auditor)).abilities.audit).toBe(true);
    expectOk(await pass(aboveTeam, auditor));
    const ownTeam = await submitted({ auditDeptId: auditTeam });
    expectOk(await pass(ownTeam, auditor));
  });

  it('stays closed to other auditors when the auditor or the audit team it names is deleted', async () => {
    await t.setParam('TaskNeedAudit', 'true');
    const anyAuditor = await tokenOf(
      await staffIn(null, [Permission.LockTaskRead, Permission.LockTaskAudit]),
    );
    const waiting = async (token: string) => {
      const response = await get(
        api.lockTask.queryPage,
        { pageIndex: 1, pageSize: 100, scope: 'toAudit' },
        token,
      );
      expectOk(response);
      return response.body.data.rows.map((r) => r.id);
    };
    const named = await staffIn(null, [Permission.LockTaskRead, Permission.LockTaskAudit]);
    const forNamed = await create({ auditorId: named.id });
    expectOk(await submit(forNamed, creator));
    const emptyTeam = await createDepartment(uniqueName('Night shift'));
    const forTeam = await create({ auditDeptId: emptyTeam });
    expectOk(await submit(forTeam, creator));
    const forAnyone = await create();
    expectOk(await submit(forAnyone, creator));

    expectOk(await get(api.staff.del, { id: named.id }));
    expectOk(await get(api.department.del, { id: emptyTeam }));
    for (const id of [forNamed, forTeam]) {
      expect((await task(id, anyAuditor)).abilities.audit).toBe(false);
      expectCode(await pass(id, anyAuditor), ResultCode.LockTaskNotAuditor);
      expectCode(await pass(id, auditor), ResultCode.LockTaskNotAuditor);
    }
    const listed = await waiting(anyAuditor);
    expect(listed).toContain(forAnyone);
    expect(listed).not.toContain(forNamed);
    expect(listed).not.toContain(forTeam);
    // The administrator still audits them.
    expectOk(await get(api.lockTask.pass, { id: forNamed }));
    expectOk(await get(api.lockTask.pass, { id: forTeam }));
  });

  it('is ended early with a reason, after which nothing moves it', async () => {
    await t.setParam('TaskNeedAudit', 'true');
    const id = await create();
    expectOk(await submit(id, creator));
    expectOk(await pass(id, auditor));
    const ender = await tokenOf(await staffIn(null, [Permission.LockTaskRead, Permission.LockTaskForceEnd]));
    expect((await task(id, ender)).abilities.forceEnd).toBe(true);
    expectOk(await post(api.lockTask.forceEnd, { id, reason: 'Possession withdrawn' }, ender));
    expect(await task(id)).toMatchObject({ state: 'ForceEnd', reason: 'Possession withdrawn' });
    expectCode(
      await post(api.lockTask.forceEnd, { id, reason: 'Again' }, ender),
      ResultCode.LockTaskWrongState,
    );
    expectCode(await submit(id, creator), ResultCode.LockTaskWrongState);
  });

  it('is deleted by its creator while New or cancelled, not once approved', async () => {
    const fresh = await create();
    expectOk(await get(api.lockTask.del, { id: fresh }, creator));
    expectCode(await get(api.lockTask.getById, { id: fresh }, creator), ResultCode.NotFound);
    const withdrawn = await create();
    expectOk(await submit(withdrawn, creator));
    expectOk(await cancel(withdrawn, creator));
    expect((await task(withdrawn)).state).toBe('Cancel');
    expectOk(await get(api.lockTask.del, { id: withdrawn }, creator));
    const approved = await create();
    expectOk(await submit(approved, creator));
    expectOk(await pass(approved, auditor));
    expectCode(await get(api.lockTask.del, { id: approved }, creator), ResultCode.LockTaskWrongState);
    // Back to New from a rejected change, it was still approved once (its records and keys name it).
    await t.setParam('TaskNeedAudit', 'true');
    expectOk(await post(api.lockTask.update, { ...form({ name: 'Changed' }), id: approved }, creator));
    expectOk(await post(api.lockTask.reject, { id: approved, reason: 'No' }, auditor));
    expect(await task(approved)).toMatchObject({ state: 'New', abilities: { delete: false } });
    expectCode(await get(api.lockTask.del, { id: approved }, creator), ResultCode.LockTaskWrongState);
    expect((await task(approved)).state).toBe('New');
  });

  it('refuses bad tasks field by field, in the caller’s language', async () => {
    expectInvalid(await post(api.lockTask.save, form({ items: [] }), creator), ['items']);
    const past = await post(
      api.lockTask.save,
      form({
        startTime: new Date(Date.now() - 3 * HOUR).toISOString(),
        endTime: new Date(Date.now() - HOUR).toISOString(),
      }),
      creator,
      'zh-TW',
    );
    expectInvalid(past, ['endTime']);
    expect(fieldIssues(past)[0]?.message).toBe(translateValidation('v.endNotPast', 'zh-TW'));
    const unknown = await post(
      api.lockTask.save,
      form({ operatorIds: ['no-such-staff'], items: [{ deviceId: 'no-such-device', keyId: 'no-such-key' }] }),
      creator,
      'en',
    );
    expectInvalid(unknown, ['operatorIds.0', 'items.0.deviceId', 'items.0.keyId']);
    expect(fieldIssues(unknown).map((i) => i.message)).toEqual([
      translateValidation('v.unknownObject', 'en'),
      translateValidation('v.unknownDevice', 'en'),
      translateValidation('v.unknownKey', 'en'),
    ]);
  });
});
