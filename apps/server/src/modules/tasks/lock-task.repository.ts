import type {
  AuditFlag,
  LockTaskForm,
  LockTaskItemRow,
  LockTaskScope,
  LockTaskState,
  PageQuery,
  TaskFinishFlag,
  TaskSource,
} from '@uiot/contracts';
import { and, asc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { containsText, paged } from '../../db/paging.ts';
import { treeParents } from '../../db/tree.ts';
import { device, lockKey } from '../devices/devices.schema.ts';
import { departmentTree } from '../org/index.ts';
import { department, staff } from '../org/org.schema.ts';
import { type AuditScope, auditScopeOf } from './audit-scope.ts';
import type { LockTaskChange } from './lock-task-machine.ts';
import { planItems } from './task-items.ts';
import { lockTask, lockTaskItem, lockTaskOperator } from './tasks.schema.ts';

/** Who looks at tasks: the lists' scopes and the audit ability depend on it. */
export interface TaskViewer {
  staffId: string;
  /** The viewer's department and those above it, nearest first. */
  departmentPath: readonly string[];
}

/** A stored task with the names of what it refers to, before its operators and items are added. */
export interface StoredTask {
  id: string;
  name: string;
  startTime: Date;
  endTime: Date;
  state: LockTaskState;
  authFlag: AuditFlag | null;
  reason: string | null;
  auditDeptId: string | null;
  auditDeptName: string | null;
  auditorId: string | null;
  auditorName: string | null;
  auditScope: AuditScope;
  auditedByName: string | null;
  auditedAt: Date | null;
  approvedAt: Date | null;
  operateDeptId: string | null;
  operateDeptName: string | null;
  allDevice: boolean;
  finishFlag: TaskFinishFlag | null;
  finishTime: Date | null;
  taskSource: TaskSource;
  creatorId: string;
  creatorName: string;
  createdAt: Date;
}

const auditDept = alias(department, 'audit_dept');
const operateDept = alias(department, 'operate_dept');
const auditor = alias(staff, 'auditor');

const taskColumns = {
  id: lockTask.id,
  name: lockTask.name,
  startTime: lockTask.startTime,
  endTime: lockTask.endTime,
  state: lockTask.state,
  authFlag: lockTask.authFlag,
  reason: lockTask.reason,
  auditDeptId: lockTask.auditDeptId,
  auditDeptName: auditDept.name,
  auditorId: lockTask.auditorId,
  auditorName: auditor.name,
  auditScope: lockTask.auditScope,
  auditedByName: lockTask.auditedByName,
  auditedAt: lockTask.auditedAt,
  approvedAt: lockTask.approvedAt,
  operateDeptId: lockTask.operateDeptId,
  operateDeptName: operateDept.name,
  allDevice: lockTask.allDevice,
  finishFlag: lockTask.finishFlag,
  finishTime: lockTask.finishTime,
  taskSource: lockTask.taskSource,
  creatorId: lockTask.creatorId,
  creatorName: lockTask.creatorName,
  createdAt: lockTask.createdAt,
};

function selectTasks(db: Db, where: SQL | undefined) {
  return db
    .select(taskColumns)
    .from(lockTask)
    .leftJoin(auditDept, eq(auditDept.id, lockTask.auditDeptId))
    .leftJoin(operateDept, eq(operateDept.id, lockTask.operateDeptId))
    .leftJoin(auditor, eq(auditor.id, lockTask.auditorId))
    .where(where)
    .$dynamic();
}

/** Tasks waiting for an audit this viewer may give: in their audit scope (`inAuditScope`), not their own. */
function awaitingAuditBy(viewer: TaskViewer): SQL {
  const scopes = [
    and(eq(lockTask.auditScope, 'person'), eq(lockTask.auditorId, viewer.staffId)),
    eq(lockTask.auditScope, 'any'),
  ];
  if (viewer.departmentPath.length > 0) {
    scopes.push(
      and(eq(lockTask.auditScope, 'team'), inArray(lockTask.auditDeptId, [...viewer.departmentPath])),
    );
  }
  return and(
    inArray(lockTask.state, ['Audit', 'Update']),
    sql`${lockTask.creatorId} <> ${viewer.staffId}`,
    or(...scopes),
  )!;
}

/** Tasks whose operator team holds the staff member. */
function operatedBy(staffId: string): SQL {
  return sql`exists (select 1 from ${lockTaskOperator} where ${lockTaskOperator.taskId} = ${lockTask.id} and ${lockTaskOperator.staffId} = ${staffId})`;
}

/** Approved tasks (not waiting for audit, not withdrawn) whose time overlaps [start, end), starting first. */
export async function tasksOverlapping(
  db: Db,
  day: { start: Date; end: Date },
  limit: number,
): Promise<{ total: number; rows: StoredTask[] }> {
  return paged(
    db,
    selectTasks(
      db,
      and(
        inArray(lockTask.state, ['None', 'Execute', 'Update', 'Finish', 'ForceEnd']),
        sql`${lockTask.startTime} < ${day.end}`,
        sql`${lockTask.endTime} > ${day.start}`,
      ),
    ),
    { startTime: lockTask.startTime },
    { pageIndex: 1, pageSize: limit },
    { defaultSort: { by: 'startTime', ascending: true }, tieBreaker: lockTask.id },
  );
}

export async function queryTasks(
  db: Db,
  search: {
    keyword?: string | undefined;
    state?: LockTaskState | undefined;
    scope?: LockTaskScope | undefined;
  },
  page: PageQuery,
  viewer: TaskViewer,
): Promise<{ total: number; rows: StoredTask[] }> {
  const where = and(
    search.keyword ? containsText(lockTask.name, search.keyword) : undefined,
    search.state ? eq(lockTask.state, search.state) : undefined,
    search.scope === 'mine' ? eq(lockTask.creatorId, viewer.staffId) : undefined,
    search.scope === 'toAudit' ? awaitingAuditBy(viewer) : undefined,
    search.scope === 'assigned' ? operatedBy(viewer.staffId) : undefined,
    search.scope === 'audited' ? eq(lockTask.auditedBy, viewer.staffId) : undefined,
  );
  return paged(
    db,
    selectTasks(db, where),
    {
      createdAt: lockTask.createdAt,
      name: lockTask.name,
      startTime: lockTask.startTime,
      endTime: lockTask.endTime,
      state: lockTask.state,
    },
    page,
    { defaultSort: { by: 'createdAt', ascending: false }, tieBreaker: lockTask.id },
  );
}

export async function taskById(db: Db, id: string, lock = false): Promise<StoredTask | undefined> {
  const query = selectTasks(db, eq(lockTask.id, id));
  const [row] = await (lock ? query.for('update', { of: lockTask }) : query);
  return row;
}

/** The staff of a task's operator team (who may not audit it), read with the task in the caller's transaction. */
export async function operatorsOf(db: Db, taskId: string): Promise<{ id: string }[]> {
  return db
    .select({ id: lockTaskOperator.staffId })
    .from(lockTaskOperator)
    .where(eq(lockTaskOperator.taskId, taskId));
}

/** The operators and the items of these tasks, by task. */
export async function partsOf(
  db: Db,
  ids: readonly string[],
): Promise<{
  operators: Map<string, { id: string; name: string }[]>;
  items: Map<string, LockTaskItemRow[]>;
}> {
  const operators = new Map<string, { id: string; name: string }[]>();
  const items = new Map<string, LockTaskItemRow[]>();
  if (ids.length === 0) return { operators, items };
  const operatorRows = await db
    .select({ taskId: lockTaskOperator.taskId, id: staff.id, name: staff.name })
    .from(lockTaskOperator)
    .innerJoin(staff, eq(staff.id, lockTaskOperator.staffId))
    .where(inArray(lockTaskOperator.taskId, [...ids]))
    .orderBy(asc(staff.name), asc(staff.id));
  for (const { taskId, ...operator } of operatorRows) {
    operators.set(taskId, [...(operators.get(taskId) ?? []), operator]);
  }
  const itemRows = await db
    .select({
      taskId: lockTaskItem.taskId,
      id: lockTaskItem.id,
      deviceId: lockTaskItem.deviceId,
      deviceName: device.name,
      keyId: lockTaskItem.keyId,
      keyName: lockKey.name,
      toKeyTime: lockTaskItem.toKeyTime,
      downloadRefusal: lockTaskItem.downloadRefusal,
      uploadTime: lockTaskItem.uploadTime,
    })
    .from(lockTaskItem)
    .innerJoin(device, eq(device.id, lockTaskItem.deviceId))
    .leftJoin(lockKey, eq(lockKey.id, lockTaskItem.keyId))
    .where(inArray(lockTaskItem.taskId, [...ids]))
    .orderBy(asc(lockTaskItem.sortIndex), asc(lockTaskItem.id));
  for (const { taskId, toKeyTime, uploadTime, ...item } of itemRows) {
    items.set(taskId, [
      ...(items.get(taskId) ?? []),
      { ...item, toKeyTime: toKeyTime?.toISOString() ?? null, uploadTime: uploadTime?.toISOString() ?? null },
    ]);
  }
  return { operators, items };
}

/** The department of a staff member and those above it, nearest first. */
export async function departmentPathOf(db: Db, staffId: string): Promise<string[]> {
  const [row] = await db.select({ deptId: staff.deptId }).from(staff).where(eq(staff.id, staffId));
  const path: string[] = [];
  if (!row?.deptId) return path;
  const parents = await treeParents(db, departmentTree);
  for (let id: string | null = row.deptId; id && !path.includes(id); id = parents.get(id) ?? null) {
    path.push(id);
  }
  return path;
}

/** What a form names that does not exist (or, for staff, is disabled): field paths. */
export async function unknownReferences(db: Db, form: LockTaskForm): Promise<string[]> {
  const missing: string[] = [];
  const active = await db
    .select({ id: staff.id })
    .from(staff)
    .where(and(inArray(staff.id, [...form.operatorIds]), eq(staff.status, 'activated')));
  const activeIds = new Set(active.map((r) => r.id));
  form.operatorIds.forEach((id, i) => {
    if (!activeIds.has(id)) missing.push(`operatorIds.${i}`);
  });
  for (const field of ['operateDeptId', 'auditDeptId'] as const) {
    const id = form[field];
    if (!id) continue;
    const [row] = await db.select({ id: department.id }).from(department).where(eq(department.id, id));
    if (!row) missing.push(field);
  }
  if (form.auditorId) {
    const [row] = await db
      .select({ id: staff.id })
      .from(staff)
      .where(and(eq(staff.id, form.auditorId), eq(staff.status, 'activated')));
    if (!row) missing.push('auditorId');
  }
  const deviceIds = [...new Set(form.items.map((i) => i.deviceId))];
  const keyIds = [...new Set(form.items.flatMap((i) => (i.keyId ? [i.keyId] : [])))];
  const devices = deviceIds.length
    ? new Set(
        (await db.select({ id: device.id }).from(device).where(inArray(device.id, deviceIds))).map(
          (r) => r.id,
        ),
      )
    : new Set<string>();
  const keys = keyIds.length
    ? new Set(
        (await db.select({ id: lockKey.id }).from(lockKey).where(inArray(lockKey.id, keyIds))).map(
          (r) => r.id,
        ),
      )
    : new Set<string>();
  form.items.forEach((item, i) => {
    if (!devices.has(item.deviceId)) missing.push(`items.${i}.deviceId`);
    if (item.keyId && !keys.has(item.keyId)) missing.push(`items.${i}.keyId`);
  });
  return missing;
}

const formColumns = (form: LockTaskForm) => ({
  name: form.name,
  startTime: new Date(form.startTime),
  endTime: new Date(form.endTime),
  auditDeptId: form.auditDeptId,
  auditorId: form.auditorId,
  auditScope: auditScopeOf(form),
  operateDeptId: form.operateDeptId,
  allDevice: form.allDevice,
});

/** The task's operators and items as the form says; items it keeps keep their progress (`planItems`). */
async function writeParts(db: Db, taskId: string, form: LockTaskForm): Promise<void> {
  await db.delete(lockTaskOperator).where(eq(lockTaskOperator.taskId, taskId));
  await db.insert(lockTaskOperator).values(form.operatorIds.map((staffId) => ({ taskId, staffId })));
  const stored = await db
    .select({ id: lockTaskItem.id, deviceId: lockTaskItem.deviceId, keyId: lockTaskItem.keyId })
    .from(lockTaskItem)
    .where(eq(lockTaskItem.taskId, taskId));
  const plan = planItems(
    stored,
    form.items.map((item) => ({ deviceId: item.deviceId, keyId: item.keyId ?? null })),
  );
  if (plan.remove.length > 0) await db.delete(lockTaskItem).where(inArray(lockTaskItem.id, plan.remove));
  for (const kept of plan.keep) {
    await db
      .update(lockTaskItem)
      .set({
        sortIndex: kept.sortIndex,
        keyId: kept.keyId,
        ...(kept.keepDownload ? {} : { toKeyTime: null, downloadRefusal: null }),
      })
      .where(eq(lockTaskItem.id, kept.id));
  }
  if (plan.add.length > 0) {
    await db.insert(lockTaskItem).values(plan.add.map((item) => ({ taskId, ...item })));
  }
}

export async function insertTask(
  db: Db,
  form: LockTaskForm,
  creator: { staffId: string; staffName: string },
): Promise<string> {
  const [row] = await db
    .insert(lockTask)
    .values({ ...formColumns(form), creatorId: creator.staffId, creatorName: creator.staffName })
    .returning({ id: lockTask.id });
  await writeParts(db, row!.id, form);
  return row!.id;
}

export async function updateTaskForm(db: Db, id: string, form: LockTaskForm): Promise<void> {
  await db
    .update(lockTask)
    .set({ ...formColumns(form), updatedAt: new Date() })
    .where(eq(lockTask.id, id));
  await writeParts(db, id, form);
}

/** Stores what the task machine answered, with who audited when it is an audit. */
export async function applyChange(
  db: Db,
  id: string,
  change: LockTaskChange,
  auditedBy?: { staffId: string; staffName: string },
): Promise<void> {
  await db
    .update(lockTask)
    .set({
      state: change.state,
      ...(change.authFlag !== undefined ? { authFlag: change.authFlag } : {}),
      ...(change.reason !== undefined ? { reason: change.reason } : {}),
      ...(change.auditedAt !== undefined
        ? {
            auditedAt: new Date(change.auditedAt),
            auditedBy: auditedBy?.staffId ?? null,
            auditedByName: auditedBy?.staffName ?? null,
          }
        : {}),
      ...(change.finishFlag !== undefined ? { finishFlag: change.finishFlag } : {}),
      ...(change.finishedAt !== undefined ? { finishTime: new Date(change.finishedAt) } : {}),
      // Every move into an approved state is (or follows) an approval; the first one is kept.
      ...(change.state === 'None' || change.state === 'Execute'
        ? { approvedAt: sql`coalesce(${lockTask.approvedAt}, now())` }
        : {}),
      updatedAt: new Date(),
    })
    .where(eq(lockTask.id, id));
}

export async function deleteTask(db: Db, id: string): Promise<void> {
  await db.delete(lockTask).where(eq(lockTask.id, id));
}

/**
 * Approved tasks whose start or end time has come, claimed for this transaction (another instance skips
 * them): the time job moves each once.
 */
export async function claimDueTasks(db: Db, now: Date, limit: number) {
  return db
    .select({
      id: lockTask.id,
      state: lockTask.state,
      authFlag: lockTask.authFlag,
      creatorId: lockTask.creatorId,
      startTime: lockTask.startTime,
      endTime: lockTask.endTime,
    })
    .from(lockTask)
    .where(
      or(
        and(eq(lockTask.state, 'None'), sql`${lockTask.startTime} <= ${now}`),
        and(inArray(lockTask.state, ['None', 'Execute', 'Update']), sql`${lockTask.endTime} <= ${now}`),
      ),
    )
    .orderBy(asc(lockTask.endTime))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** Sets the upload time of the task's items for the device (first upload only); answers the items left undone. */
export async function markItemDone(db: Db, taskId: string, deviceId: string, at: Date): Promise<number> {
  await db
    .update(lockTaskItem)
    .set({ uploadTime: at })
    .where(
      and(
        eq(lockTaskItem.taskId, taskId),
        eq(lockTaskItem.deviceId, deviceId),
        isNull(lockTaskItem.uploadTime),
      ),
    );
  const [row] = await db
    .select({ left: sql<number>`count(*)::int` })
    .from(lockTaskItem)
    .where(and(eq(lockTaskItem.taskId, taskId), isNull(lockTaskItem.uploadTime)));
  return row?.left ?? 0;
}
