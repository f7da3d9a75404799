import type { LockCodeForm, LockCodeRow } from '@uiot/contracts';
import { and, asc, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { lockCode } from './devices.schema.ts';

const lockCodeColumns = {
  id: lockCode.id,
  deviceId: lockCode.deviceId,
  dnbs: lockCode.dnbs,
  rfidCode: lockCode.rfidCode,
  rfidType: lockCode.rfidType,
  blueAddr: lockCode.blueAddr,
  effect: lockCode.effect,
  effectiveTime: lockCode.effectiveTime,
  expirationTime: lockCode.expirationTime,
  remark: lockCode.remark,
  createdAt: lockCode.createdAt,
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The lock codes of a device, oldest first. */
export async function listLockCodes(db: Db, deviceId: string): Promise<LockCodeRow[]> {
  const rows = await db
    .select(lockCodeColumns)
    .from(lockCode)
    .where(eq(lockCode.deviceId, deviceId))
    .orderBy(asc(lockCode.createdAt), asc(lockCode.id));
  return rows.map((r) => ({
    ...r,
    effectiveTime: iso(r.effectiveTime),
    expirationTime: iso(r.expirationTime),
    createdAt: r.createdAt.toISOString(),
  }));
}

/** The device a lock code belongs to, or undefined when there is no such lock code. */
export async function lockCodeDevice(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select({ deviceId: lockCode.deviceId }).from(lockCode).where(eq(lockCode.id, id));
  return row?.deviceId;
}

/** Whether another lock code of the ledger has the RFID. */
export async function rfidTaken(db: Db, rfidCode: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: lockCode.id })
    .from(lockCode)
    .where(and(eq(lockCode.rfidCode, rfidCode), exceptId ? ne(lockCode.id, exceptId) : undefined))
    .limit(1);
  return row !== undefined;
}

/** The columns a lock-code form sets. */
export const lockCodeFormColumns = (form: LockCodeForm) => ({
  deviceId: form.deviceId,
  dnbs: form.dnbs ?? null,
  rfidCode: form.rfidCode,
  rfidType: form.rfidType ?? null,
  blueAddr: form.blueAddr ?? null,
  effect: form.effect,
  effectiveTime: form.effectiveTime ? new Date(form.effectiveTime) : null,
  expirationTime: form.expirationTime ? new Date(form.expirationTime) : null,
  remark: form.remark ?? null,
});

export async function insertLockCode(db: Db, form: LockCodeForm): Promise<string> {
  const [row] = await db.insert(lockCode).values(lockCodeFormColumns(form)).returning({ id: lockCode.id });
  return row!.id;
}

export async function updateLockCodeRow(db: Db, id: string, form: LockCodeForm): Promise<void> {
  await db
    .update(lockCode)
    .set({ ...lockCodeFormColumns(form), updatedAt: new Date() })
    .where(eq(lockCode.id, id));
}

export async function deleteLockCodeRow(db: Db, id: string): Promise<void> {
  await db.delete(lockCode).where(eq(lockCode.id, id));
}
