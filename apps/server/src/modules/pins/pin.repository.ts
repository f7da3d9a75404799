import type { Page, PageQuery, PinSearch, PinUseState } from '@uiot/contracts';
import { and, eq, gte, inArray, isNotNull, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { containsText, paged } from '../../db/paging.ts';
import { type OfflinePinRow, offlinePin, pinEraseCode } from './pins.schema.ts';

export type NewPin = typeof offlinePin.$inferInsert;

/** The rows of a use state at `now`: the SQL twin of `pinUseState` (pin-rules.ts). */
function useStateIs(state: PinUseState, now: Date): SQL {
  const expired = or(
    lte(offlinePin.endTime, now),
    and(eq(offlinePin.type, 'once'), isNotNull(offlinePin.usageTime)),
    and(isNull(offlinePin.usageTime), lte(offlinePin.activationDeadline, now)),
  )!;
  if (state === 'disabled') return isNotNull(offlinePin.revokedAt);
  if (state === 'expire') return and(isNull(offlinePin.revokedAt), expired)!;
  return and(isNull(offlinePin.revokedAt), sql`not (${expired})`)!;
}

/** A page of PINs, newest first unless sorted. */
export function queryPins(
  db: Db,
  search: PinSearch,
  page: PageQuery,
  now: Date,
): Promise<Page<OfflinePinRow>> {
  const where = and(
    search.deviceId ? eq(offlinePin.deviceId, search.deviceId) : undefined,
    search.type ? eq(offlinePin.type, search.type) : undefined,
    search.useState ? useStateIs(search.useState, now) : undefined,
    search.keyword ? containsText(offlinePin.userName, search.keyword) : undefined,
  );
  const query = db.select().from(offlinePin).where(where).$dynamic();
  return paged(
    db,
    query,
    {
      createTime: offlinePin.createdAt,
      startTime: offlinePin.startTime,
      endTime: offlinePin.endTime,
      usageTime: offlinePin.usageTime,
      deviceName: offlinePin.deviceName,
      userName: offlinePin.userName,
    },
    page,
    { defaultSort: { by: 'createTime', ascending: false }, tieBreaker: offlinePin.id },
  );
}

export async function findPin(db: Db, id: string): Promise<OfflinePinRow | null> {
  const [row] = await db.select().from(offlinePin).where(eq(offlinePin.id, id));
  return row ?? null;
}

export async function insertPin(tx: Db, pin: NewPin): Promise<OfflinePinRow> {
  const [row] = await tx.insert(offlinePin).values(pin).returning();
  return row!;
}

/** The references of a device already given among those asked (a slot or a weekly choice is never reused). */
export async function takenRefs(tx: Db, deviceId: string, refs: readonly string[]): Promise<Set<string>> {
  if (refs.length === 0) return new Set();
  const rows = await tx
    .select({ ref: offlinePin.ref })
    .from(offlinePin)
    .where(and(eq(offlinePin.deviceId, deviceId), inArray(offlinePin.ref, [...refs])));
  return new Set(rows.map((r) => r.ref));
}

/** The latest erase hour given for a device, or null. */
export async function latestEraseHour(tx: Db, deviceId: string): Promise<number | null> {
  const [row] = await tx
    .select({ hour: sql<number | null>`max(${pinEraseCode.hour})` })
    .from(pinEraseCode)
    .where(eq(pinEraseCode.deviceId, deviceId));
  return row?.hour ?? null;
}

export async function insertEraseCode(
  tx: Db,
  code: { deviceId: string; hour: number; issuedByName: string | null },
): Promise<void> {
  await tx.insert(pinEraseCode).values(code).onConflictDoNothing();
}

/** Marks an erase code used (the lock reported it) and returns its hour, or null when none was given. */
export async function eraseCodeUsed(db: Db, deviceId: string, hour: number, at: Date): Promise<boolean> {
  const rows = await db
    .update(pinEraseCode)
    .set({ usedAt: sql`coalesce(${pinEraseCode.usedAt}, ${at.toISOString()}::timestamptz)` })
    .where(and(eq(pinEraseCode.deviceId, deviceId), eq(pinEraseCode.hour, hour)))
    .returning({ id: pinEraseCode.id });
  return rows.length > 0;
}

/**
 * Disables the live PINs an erase code makes the lock forget; returns them: those starting at `hour` or
 * before, and every PIN the lock holds (stored), whatever its start: the lock drops all it holds.
 */
export async function disableUpTo(
  tx: Db,
  deviceId: string,
  hour: number,
  now: Date,
  byName: string | null,
): Promise<OfflinePinRow[]> {
  return tx
    .update(offlinePin)
    .set({ revokedAt: now, revokedByName: byName, pendingCode: null })
    .where(
      and(
        eq(offlinePin.deviceId, deviceId),
        or(lte(offlinePin.startHour, hour), eq(offlinePin.storage, 'stored')),
        isNull(offlinePin.revokedAt),
        gte(offlinePin.endTime, now),
      ),
    )
    .returning();
}

/**
 * The lock's PIN secret was replaced or withdrawn: its live derived PINs are disabled, and their deletion
 * counts as done (the lock refuses them once it holds its new secret; no command deletes them). Stored PINs
 * do not depend on the secret and stay. Returns how many were disabled.
 */
export async function disableDerived(db: Db, deviceId: string, at: Date): Promise<number> {
  const rows = await db
    .update(offlinePin)
    .set({ revokedAt: at, revokedByName: null, deletionConfirmedAt: at })
    .where(
      and(
        eq(offlinePin.deviceId, deviceId),
        eq(offlinePin.storage, 'derived'),
        isNull(offlinePin.revokedAt),
        gte(offlinePin.endTime, at),
      ),
    )
    .returning({ id: offlinePin.id });
  return rows.length;
}

/**
 * The erase code was used: confirms the deletion of the disabled PINs starting at `hour` or before, and of
 * every PIN the lock held then (stored), disabling one stored after the code was issued.
 */
export async function confirmErased(
  db: Db,
  deviceId: string,
  hour: number,
  at: Date,
): Promise<OfflinePinRow[]> {
  return db
    .update(offlinePin)
    .set({
      deletionConfirmedAt: at,
      revokedAt: sql`coalesce(${offlinePin.revokedAt}, ${at})`,
      pendingCode: null,
    })
    .where(
      and(
        eq(offlinePin.deviceId, deviceId),
        isNull(offlinePin.deletionConfirmedAt),
        or(
          and(lte(offlinePin.startHour, hour), isNotNull(offlinePin.revokedAt)),
          eq(offlinePin.storage, 'stored'),
        ),
      ),
    )
    .returning();
}

export async function revoke(
  tx: Db,
  id: string,
  now: Date,
  byName: string | null,
): Promise<OfflinePinRow | null> {
  const [row] = await tx
    .update(offlinePin)
    .set({ revokedAt: now, revokedByName: byName, pendingCode: null })
    .where(and(eq(offlinePin.id, id), isNull(offlinePin.revokedAt)))
    .returning();
  return row ?? null;
}

export async function setDeletionCommand(db: Db, id: string, commandId: string): Promise<void> {
  await db.update(offlinePin).set({ deletionCommandId: commandId }).where(eq(offlinePin.id, id));
}

/** The lock confirmed a deletePin command: its PIN's deletion is done. */
export async function confirmDeletion(db: Db, commandId: string, at: Date): Promise<OfflinePinRow[]> {
  return db
    .update(offlinePin)
    .set({ deletionConfirmedAt: at })
    .where(and(eq(offlinePin.deletionCommandId, commandId), isNull(offlinePin.deletionConfirmedAt)))
    .returning();
}

/**
 * What the locks still have to be told, window not over: disabled PINs they have not confirmed deleted, and
 * stored PINs they have not confirmed holding.
 */
export async function pendingLockWork(
  db: Db,
  deviceIds: readonly string[] | null,
  now: Date,
): Promise<OfflinePinRow[]> {
  return db
    .select()
    .from(offlinePin)
    .where(
      and(
        deviceIds ? inArray(offlinePin.deviceId, [...deviceIds]) : undefined,
        sql`${offlinePin.endTime} > ${now.toISOString()}::timestamptz`,
        or(
          and(isNotNull(offlinePin.revokedAt), isNull(offlinePin.deletionConfirmedAt)),
          and(isNull(offlinePin.revokedAt), eq(offlinePin.storage, 'pending')),
        ),
      ),
    );
}

/**
 * Forgets the codes of stored PINs whose window has ended before their lock confirmed them: they will never
 * be sent, and the server keeps no PIN code it does not need. Answers how many.
 */
export async function dropExpiredPendingCodes(db: Db, now: Date): Promise<number> {
  const rows = await db
    .update(offlinePin)
    .set({ pendingCode: null })
    .where(
      and(isNotNull(offlinePin.pendingCode), sql`${offlinePin.endTime} <= ${now.toISOString()}::timestamptz`),
    )
    .returning({ id: offlinePin.id });
  return rows.length;
}

/** The next id of a stored PIN on a device (inside the device's lock). */
export async function nextStoredId(tx: Db, deviceId: string): Promise<number> {
  const [row] = await tx
    .select({ last: sql<number | null>`max(${offlinePin.storedId})` })
    .from(offlinePin)
    .where(eq(offlinePin.deviceId, deviceId));
  return (row?.last ?? 0) + 1;
}

export async function setDeliveryCommand(db: Db, id: string, commandId: string): Promise<void> {
  await db.update(offlinePin).set({ deliveryCommandId: commandId }).where(eq(offlinePin.id, id));
}

/** The lock confirmed a setPin: it holds the PIN; its code is not kept any longer. */
export async function confirmDelivery(db: Db, commandId: string): Promise<OfflinePinRow[]> {
  return (
    db
      .update(offlinePin)
      // keepsCode: the code stays until its generator has seen it too.
      .set({
        storage: 'stored',
        pendingCode: sql`case when ${offlinePin.codeShownAt} is null then ${offlinePin.pendingCode} end`,
      })
      .where(and(eq(offlinePin.deliveryCommandId, commandId), eq(offlinePin.storage, 'pending')))
      .returning()
  );
}

/**
 * Draws the code of a durable PIN whose lock woke (docs/offline-pins.md): kept only if no code was drawn
 * before (by this or another instance) and the PIN still waits for its lock. Answers the PIN as it stands.
 */
export async function drawCode(db: Db, id: string, code: string): Promise<OfflinePinRow | null> {
  const [drawn] = await db
    .update(offlinePin)
    .set({ pendingCode: code })
    .where(
      and(
        eq(offlinePin.id, id),
        isNull(offlinePin.pendingCode),
        isNull(offlinePin.codeShownAt),
        isNull(offlinePin.revokedAt),
        eq(offlinePin.storage, 'pending'),
      ),
    )
    .returning();
  return drawn ?? findPin(db, id);
}

/** A PIN read for update, inside the caller's transaction. */
export async function pinForUpdate(tx: Db, id: string): Promise<OfflinePinRow | null> {
  const [row] = await tx.select().from(offlinePin).where(eq(offlinePin.id, id)).for('update');
  return row ?? null;
}

/** Its generator was shown the code: kept only while `keep` says so (keepsCode). */
export async function markCodeShown(tx: Db, id: string, at: Date, keep: boolean): Promise<OfflinePinRow> {
  const [row] = await tx
    .update(offlinePin)
    .set({ codeShownAt: at, ...(keep ? {} : { pendingCode: null }) })
    .where(eq(offlinePin.id, id))
    .returning();
  return row!;
}

/** A lock reported a use of a PIN (by reference): counted once per report; null when no such PIN. */
export async function recordUse(
  db: Db,
  deviceId: string,
  ref: string,
  at: Date,
): Promise<OfflinePinRow | null> {
  const stamp = sql`${at.toISOString()}::timestamptz`;
  const [row] = await db
    .update(offlinePin)
    .set({
      usageTime: sql`coalesce(least(${offlinePin.usageTime}, ${stamp}), ${stamp})`,
      lastUsedTime: sql`coalesce(greatest(${offlinePin.lastUsedTime}, ${stamp}), ${stamp})`,
      useCount: sql`${offlinePin.useCount} + 1`,
    })
    .where(and(eq(offlinePin.deviceId, deviceId), eq(offlinePin.ref, ref)))
    .returning();
  return row ?? null;
}
