import type { KeyState, LockTaskState } from '@uiot/contracts';
import { and, eq, exists, gt, inArray, lte, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { device, deviceType, lockKey } from '../devices/devices.schema.ts';
import { loadStaffAccess } from '../org/index.ts';
import { staff } from '../org/org.schema.ts';
import { departmentPathOf } from './lock-task.repository.ts';
import type { AuthorizationGrant, OpenFacts, OpeningStaff, TaskGrant } from './open-decision.ts';
import {
  fixedAuthorization,
  fixedAuthorizationDevice,
  lockTask,
  lockTaskItem,
  lockTaskOperator,
} from './tasks.schema.ts';

/** A device as an opening reads it: the decision's part, and what its record keeps and its command needs. */
export interface OpeningDevice {
  id: string;
  name: string;
  code: string | null;
  stationId: string;
  typeId: string;
  mainTypeId: string | null;
  category: string;
  regist: boolean;
  /** How the lock talks (LoRaWan takes the custom PIN algorithm); null when unknown. */
  netType: string | null;
}

/** The facts of one opening, with the names the record keeps. */
export interface LoadedOpening {
  facts: OpenFacts;
  staffName: string | null;
  keyName: string | null;
  /** the names of the candidate tasks, for the record of the one that allows */
  taskNames: ReadonlyMap<string, string>;
}

/** Task states the decision reads: approved ones allow, those waiting for an audit name the refusal. */
const CANDIDATE_STATES: readonly LockTaskState[] = ['New', 'Audit', 'Update', 'None', 'Execute'];

const mainType = alias(deviceType, 'opening_main_type');

export async function openingDevice(db: Db, deviceId: string): Promise<OpeningDevice | null> {
  return (await openingDevices(db, [deviceId])).get(deviceId) ?? null;
}

/** `openingDevice` of several devices in one query, by id (an unknown id is absent). */
export async function openingDevices(
  db: Db,
  deviceIds: readonly string[],
): Promise<Map<string, OpeningDevice>> {
  if (deviceIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: device.id,
      name: device.name,
      code: device.code,
      stationId: device.stationId,
      typeId: device.typeId,
      mainTypeId: sql<string | null>`coalesce(${mainType.id}, ${deviceType.id})`,
      category: device.category,
      regist: device.regist,
      netType: device.netType,
    })
    .from(device)
    .leftJoin(deviceType, eq(deviceType.id, device.typeId))
    .leftJoin(mainType, eq(mainType.id, deviceType.parentId))
    .where(
      deviceIds.length === 1 ? eq(device.id, deviceIds[0]!) : inArray(device.id, [...new Set(deviceIds)]),
    );
  return new Map(rows.map((row) => [row.id, row]));
}

async function openingStaff(db: Db, staffId: string): Promise<(OpeningStaff & { name: string }) | null> {
  const [row] = await db
    .select({ id: staff.id, name: staff.name, status: staff.status })
    .from(staff)
    .where(eq(staff.id, staffId));
  if (!row) return null;
  const [departmentPath, access] = await Promise.all([
    departmentPathOf(db, staffId),
    loadStaffAccess(db, staffId),
  ]);
  return {
    id: row.id,
    name: row.name,
    status: row.status === 'activated' ? 'activated' : 'disabled',
    departmentPath,
    isAdmin: access.isAdmin,
    permissions: access.permissions,
  };
}

const taskColumns = {
  id: lockTask.id,
  name: lockTask.name,
  state: lockTask.state,
  startTime: lockTask.startTime,
  endTime: lockTask.endTime,
  allDevice: lockTask.allDevice,
};

/**
 * The staff member's tasks that could cover the device: theirs, not ended, for it or for every device; for
 * an opening that happened at `happenedAt`, also those finished since whose window held that moment.
 */
async function candidateTasks(db: Db, staffId: string, deviceId: string, happenedAt?: Date) {
  const tasks = await db
    .select(taskColumns)
    .from(lockTask)
    .innerJoin(lockTaskOperator, eq(lockTaskOperator.taskId, lockTask.id))
    .where(
      and(
        eq(lockTaskOperator.staffId, staffId),
        happenedAt
          ? or(
              inArray(lockTask.state, [...CANDIDATE_STATES]),
              and(
                eq(lockTask.state, 'Finish'),
                lte(lockTask.startTime, happenedAt),
                gt(lockTask.endTime, happenedAt),
              ),
            )
          : inArray(lockTask.state, [...CANDIDATE_STATES]),
        or(
          eq(lockTask.allDevice, true),
          exists(
            db
              .select({ one: sql`1` })
              .from(lockTaskItem)
              .where(and(eq(lockTaskItem.taskId, lockTask.id), eq(lockTaskItem.deviceId, deviceId))),
          ),
        ),
      ),
    );
  if (tasks.length === 0) return [];
  const items = await db
    .select({ taskId: lockTaskItem.taskId, deviceId: lockTaskItem.deviceId, keyId: lockTaskItem.keyId })
    .from(lockTaskItem)
    .where(
      and(
        inArray(
          lockTaskItem.taskId,
          tasks.map((t) => t.id),
        ),
        eq(lockTaskItem.deviceId, deviceId),
      ),
    );
  return tasks.map((task) => ({
    name: task.name,
    grant: {
      id: task.id,
      state: task.state,
      startTime: task.startTime.getTime(),
      endTime: task.endTime.getTime(),
      allDevice: task.allDevice,
      operatorIds: [staffId],
      items: items
        .filter((item) => item.taskId === task.id)
        .map((item) => ({ deviceId: item.deviceId, keyId: item.keyId })),
    } satisfies TaskGrant,
  }));
}

const grantColumns = {
  id: fixedAuthorization.id,
  staffId: fixedAuthorization.staffId,
  deptId: fixedAuthorization.deptId,
  forever: fixedAuthorization.forever,
  startTime: fixedAuthorization.startTime,
  endTime: fixedAuthorization.endTime,
  allDevice: fixedAuthorization.allDevice,
};

/** The authorisation of the row lists the device. */
const listsDevice = (db: Db, deviceId: string) =>
  exists(
    db
      .select({ one: sql`1` })
      .from(fixedAuthorizationDevice)
      .where(
        and(
          eq(fixedAuthorizationDevice.authorizationId, fixedAuthorization.id),
          eq(fixedAuthorizationDevice.deviceId, deviceId),
        ),
      ),
  );

interface StoredGrant {
  id: string;
  staffId: string | null;
  deptId: string | null;
  forever: boolean;
  startTime: Date | null;
  endTime: Date | null;
  allDevice: boolean;
}

/** A stored authorisation as the decision reads it, read for one device (on its list, or for every device). */
const grantOf =
  (deviceId: string) =>
  (row: StoredGrant): AuthorizationGrant => ({
    id: row.id,
    objectType: row.staffId ? 'staff' : 'department',
    objectId: (row.staffId ?? row.deptId)!,
    forever: row.forever,
    startTime: row.startTime?.getTime() ?? null,
    endTime: row.endTime?.getTime() ?? null,
    allDevice: row.allDevice,
    deviceIds: row.allDevice ? [] : [deviceId],
  });

/** Authorisations of the staff member or a department on their path that could cover the device. */
async function candidateAuthorizations(
  db: Db,
  staffId: string,
  departmentPath: readonly string[],
  deviceId: string,
): Promise<AuthorizationGrant[]> {
  const rows = await db
    .select(grantColumns)
    .from(fixedAuthorization)
    .where(
      and(
        or(
          eq(fixedAuthorization.staffId, staffId),
          departmentPath.length > 0 ? inArray(fixedAuthorization.deptId, [...departmentPath]) : undefined,
        ),
        or(eq(fixedAuthorization.allDevice, true), listsDevice(db, deviceId)),
      ),
    );
  return rows.map(grantOf(deviceId));
}

async function openingKey(db: Db, keyId: string) {
  const [row] = await db
    .select({ id: lockKey.id, name: lockKey.name, state: lockKey.state, staffId: lockKey.staffId })
    .from(lockKey)
    .where(eq(lockKey.id, keyId));
  return row ? { ...row, state: row.state as KeyState } : null;
}

/** Who opens, and with which key: read once for every lock one request decides (a task download). */
export interface Opener {
  person: (OpeningStaff & { name: string }) | null;
  key: Awaited<ReturnType<typeof openingKey>>;
}

/** The staff member (account, department path, grants) and the key of openings to decide. */
export async function loadOpener(db: Db, staffId: string, keyId?: string | null): Promise<Opener> {
  const [person, key] = await Promise.all([
    openingStaff(db, staffId),
    keyId ? openingKey(db, keyId) : Promise.resolve(null),
  ]);
  return { person, key };
}

/**
 * What the decision reads for one device, the opener read before: the tasks and authorisations that could
 * cover it (with `happenedAt`, of an opening that already happened: tasks finished since included).
 */
export async function loadOpeningOf(
  db: Db,
  opener: Opener,
  opened: OpeningDevice,
  happenedAt?: Date,
): Promise<LoadedOpening> {
  const { person, key } = opener;
  const [tasks, authorizations] = person
    ? await Promise.all([
        candidateTasks(db, person.id, opened.id, happenedAt),
        candidateAuthorizations(db, person.id, person.departmentPath, opened.id),
      ])
    : [[], []];
  return {
    facts: {
      staff: person,
      device: { id: opened.id, typeId: opened.typeId, mainTypeId: opened.mainTypeId },
      key: key ? { id: key.id, state: key.state, staffId: key.staffId } : null,
      tasks: tasks.map((t) => t.grant),
      authorizations,
    },
    staffName: person?.name ?? null,
    keyName: key?.name ?? null,
    taskNames: new Map(tasks.map((t) => [t.grant.id, t.name])),
  };
}

/**
 * Loads what the "who may open" decision reads for one staff member, device and (key openings) key: the
 * account with its department path and grants, the key, and the tasks and fixed authorisations that could
 * cover the device. Read on one connection, outside any transaction (PGlite has one).
 */
export async function loadOpening(
  db: Db,
  request: { staffId: string; device: OpeningDevice; keyId?: string | null | undefined },
): Promise<LoadedOpening> {
  return loadOpeningOf(db, await loadOpener(db, request.staffId, request.keyId), request.device);
}

/**
 * The approved tasks and the authorisations that could cover an opening the lock reported at `at`: any
 * operator's, any object's, for this device or for every device (`reportedOpeningCover` decides).
 */
export async function coverCandidates(
  db: Db,
  deviceId: string,
  at: Date,
): Promise<{ tasks: TaskGrant[]; authorizations: AuthorizationGrant[]; taskNames: Map<string, string> }> {
  const itemForDevice = db
    .select({ one: sql`1` })
    .from(lockTaskItem)
    .where(and(eq(lockTaskItem.taskId, lockTask.id), eq(lockTaskItem.deviceId, deviceId)));
  const tasks = await db
    .select(taskColumns)
    .from(lockTask)
    .where(
      and(
        inArray(lockTask.state, ['None', 'Execute']),
        lte(lockTask.startTime, at),
        gt(lockTask.endTime, at),
        or(eq(lockTask.allDevice, true), exists(itemForDevice)),
      ),
    );
  const grants = await db
    .select(grantColumns)
    .from(fixedAuthorization)
    .where(or(eq(fixedAuthorization.allDevice, true), listsDevice(db, deviceId)));
  return {
    tasks: tasks.map((task) => ({
      id: task.id,
      state: task.state,
      startTime: task.startTime.getTime(),
      endTime: task.endTime.getTime(),
      allDevice: task.allDevice,
      operatorIds: [],
      // Read for this device only: it is an item, or the task is for every device.
      items: task.allDevice ? [] : [{ deviceId, keyId: null }],
    })),
    authorizations: grants.map(grantOf(deviceId)),
    taskNames: new Map(tasks.map((t) => [t.id, t.name])),
  };
}
