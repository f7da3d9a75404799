import { type ReplacementRow, type ReplacementStatus, replacementStepRow } from '@uiot/contracts';
import { and, desc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { adjustValue, device, devicePassword, lockCode, lockReplacement } from './devices.schema.ts';
import type { ReplacementCandidate, ReplacementState, UnfinishedProcedure } from './replacement-machine.ts';

const storedSteps = z.array(replacementStepRow);

/** A stored procedure with the ids of its two devices. */
export interface StoredReplacement extends ReplacementState {
  id: string;
  deviceId: string;
  replacementId: string;
}

export async function findCandidate(db: Db, id: string): Promise<ReplacementCandidate | null> {
  const [row] = await db
    .select({ id: device.id, regist: device.regist, mainDeviceId: device.mainDeviceId })
    .from(device)
    .where(eq(device.id, id));
  return row ?? null;
}

/** The procedures not yet completed that involve one of the devices, in either role. */
export function unfinishedProceduresOf(db: Db, deviceIds: string[]): Promise<UnfinishedProcedure[]> {
  return db
    .select({ deviceId: lockReplacement.deviceId, replacementId: lockReplacement.replacementId })
    .from(lockReplacement)
    .where(
      and(
        ne(lockReplacement.status, 'Completed' satisfies ReplacementStatus),
        or(inArray(lockReplacement.deviceId, deviceIds), inArray(lockReplacement.replacementId, deviceIds)),
      ),
    );
}

export async function insertReplacement(
  db: Db,
  values: { deviceId: string; replacementId: string; createdBy: string | null } & ReplacementState,
): Promise<string> {
  const [row] = await db.insert(lockReplacement).values(values).returning({ id: lockReplacement.id });
  return row!.id;
}

export async function findStoredReplacement(db: Db, id: string): Promise<StoredReplacement | null> {
  const [row] = await db
    .select({
      id: lockReplacement.id,
      deviceId: lockReplacement.deviceId,
      replacementId: lockReplacement.replacementId,
      status: lockReplacement.status,
      steps: lockReplacement.steps,
    })
    .from(lockReplacement)
    .where(eq(lockReplacement.id, id));
  if (!row) return null;
  return { ...row, status: row.status as ReplacementStatus, steps: storedSteps.parse(row.steps) };
}

export async function saveProgress(db: Db, id: string, state: ReplacementState): Promise<void> {
  await db
    .update(lockReplacement)
    .set({ status: state.status, steps: state.steps, updatedAt: new Date() })
    .where(eq(lockReplacement.id, id));
}

const oldLock = alias(device, 'old_lock');
const newLock = alias(device, 'new_lock');

function replacementRows(db: Db) {
  return db
    .select({
      id: lockReplacement.id,
      deviceId: lockReplacement.deviceId,
      deviceName: oldLock.name,
      replacementId: lockReplacement.replacementId,
      replacementName: newLock.name,
      replacementCode: newLock.code,
      status: lockReplacement.status,
      steps: lockReplacement.steps,
      createdBy: lockReplacement.createdBy,
      createdAt: lockReplacement.createdAt,
      updatedAt: lockReplacement.updatedAt,
    })
    .from(lockReplacement)
    .innerJoin(oldLock, eq(oldLock.id, lockReplacement.deviceId))
    .innerJoin(newLock, eq(newLock.id, lockReplacement.replacementId))
    .$dynamic();
}

type ReplacementRecord = Awaited<ReturnType<ReturnType<typeof replacementRows>['execute']>>[number];

const toRow = (r: ReplacementRecord): ReplacementRow => ({
  ...r,
  status: r.status as ReplacementStatus,
  steps: storedSteps.parse(r.steps),
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

export async function findReplacementRow(db: Db, id: string): Promise<ReplacementRow | null> {
  const [row] = await replacementRows(db).where(eq(lockReplacement.id, id));
  return row ? toRow(row) : null;
}

/** The latest procedure in which the device is the old lock or the replacement. */
export async function latestReplacementRowOf(db: Db, deviceId: string): Promise<ReplacementRow | null> {
  const [row] = await replacementRows(db)
    .where(or(eq(lockReplacement.deviceId, deviceId), eq(lockReplacement.replacementId, deviceId)))
    .orderBy(desc(lockReplacement.createdAt), desc(lockReplacement.id))
    .limit(1);
  return row ? toRow(row) : null;
}

// Step effects. Each one sets values (never adds to them), so running it again after a crash or a retry
// leaves the ledger as the first run did.

/** Replace: the replacement takes the old lock's place; the old lock is marked out of work. */
export async function takeOldLockPlace(db: Db, oldId: string, newId: string): Promise<void> {
  await db.execute(sql`
    update device as r set
      unit_id = o.unit_id, station_id = o.station_id, lng = o.lng, lat = o.lat, addr = o.addr,
      dept_id = o.dept_id, staff_id = o.staff_id, km_info = o.km_info, line = o.line, track = o.track,
      door = o.door, graph_id = o.graph_id, idx_no = o.idx_no, bay_id = o.bay_id, ad_code = o.ad_code,
      sbbh = o.sbbh, updated_at = now()
    from device as o
    where r.id = ${newId} and o.id = ${oldId}`);
  await db.update(device).set({ noWorking: true, updatedAt: new Date() }).where(eq(device.id, oldId));
}

/** InformationTo: lock codes, correction values and attached devices move to the replacement. */
export async function moveInformation(db: Db, oldId: string, newId: string): Promise<void> {
  const now = new Date();
  await db.update(lockCode).set({ deviceId: newId, updatedAt: now }).where(eq(lockCode.deviceId, oldId));
  await db
    .update(adjustValue)
    .set({ deviceId: newId, updatedAt: now })
    .where(eq(adjustValue.deviceId, oldId));
  await db.update(device).set({ mainDeviceId: newId, updatedAt: now }).where(eq(device.mainDeviceId, oldId));
}

export async function permanentPasswordOf(db: Db, deviceId: string): Promise<string | null> {
  const [row] = await db
    .select({ password: devicePassword.password })
    .from(devicePassword)
    .where(eq(devicePassword.deviceId, deviceId));
  return row?.password ?? null;
}

export async function setPermanentPassword(
  db: Db,
  deviceId: string,
  password: string,
  updatedBy: string | null,
): Promise<void> {
  const now = new Date();
  await db
    .insert(devicePassword)
    .values({ deviceId, password, updatedBy, updatedAt: now })
    .onConflictDoUpdate({
      target: devicePassword.deviceId,
      set: { password, updatedBy, updatedAt: now },
      setWhere: ne(devicePassword.password, password),
    });
}
