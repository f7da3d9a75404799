import type { AlarmBoardLinkRow, AlarmBoardLinkState, AlarmBoardRow, Page, PageQuery } from '@uiot/contracts';
import { and, desc, eq, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { paged } from '../../db/paging.ts';
import { device } from '../devices/devices.schema.ts';
import { station } from '../org/org.schema.ts';
import { alarmBoardLink, alarmBoardSession } from './alarm-board.schema.ts';
import { deviceAlarm } from './alarms.schema.ts';

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export async function queryBoardLinks(
  db: Db,
  search: { state?: AlarmBoardLinkState | undefined },
  page: PageQuery,
  now: Date,
): Promise<Page<AlarmBoardLinkRow>> {
  const query = db
    .select({
      id: alarmBoardLink.id,
      name: alarmBoardLink.name,
      stationId: alarmBoardLink.stationId,
      stationName: station.name,
      createdBy: alarmBoardLink.createdByName,
      createdAt: alarmBoardLink.createdAt,
      revokedAt: alarmBoardLink.revokedAt,
      codeHash: alarmBoardLink.codeHash,
      codeExpiresAt: alarmBoardLink.codeExpiresAt,
      lastUsedAt: alarmBoardLink.lastUsedAt,
      lastUsedIp: alarmBoardLink.lastUsedIp,
    })
    .from(alarmBoardLink)
    .innerJoin(station, eq(station.id, alarmBoardLink.stationId))
    .where(
      search.state === 'revoked'
        ? isNotNull(alarmBoardLink.revokedAt)
        : search.state === 'active'
          ? isNull(alarmBoardLink.revokedAt)
          : undefined,
    )
    .$dynamic();
  const result = await paged(
    db,
    query,
    { createdAt: alarmBoardLink.createdAt, lastUsedAt: alarmBoardLink.lastUsedAt, name: alarmBoardLink.name },
    page,
    { defaultSort: { by: 'createdAt', ascending: false }, tieBreaker: alarmBoardLink.id },
  );
  return {
    total: result.total,
    rows: result.rows.map(({ codeHash, codeExpiresAt, ...r }) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      state: r.revokedAt ? 'revoked' : 'active',
      revokedAt: iso(r.revokedAt),
      codeExpiresAt:
        codeHash && !r.revokedAt && codeExpiresAt && codeExpiresAt > now ? codeExpiresAt.toISOString() : null,
      lastUsedAt: iso(r.lastUsedAt),
    })),
  };
}

export function allStations(db: Db): Promise<{ id: string; name: string }[]> {
  return db.select({ id: station.id, name: station.name }).from(station).orderBy(station.name);
}

export async function stationExists(db: Db, stationId: string): Promise<boolean> {
  const [row] = await db.select({ id: station.id }).from(station).where(eq(station.id, stationId));
  return Boolean(row);
}

export async function insertBoardLink(
  db: Db,
  values: { stationId: string; name: string; createdBy: string; createdByName: string },
): Promise<string> {
  const [row] = await db.insert(alarmBoardLink).values(values).returning({ id: alarmBoardLink.id });
  return row!.id;
}

/** Gives an unrevoked link a new code (the one before stops working); false when revoked or unknown. */
export async function replaceBoardCode(
  db: Db,
  id: string,
  code: { hash: string; expiresAt: Date },
): Promise<boolean> {
  const rows = await db
    .update(alarmBoardLink)
    .set({ codeHash: code.hash, codeExpiresAt: code.expiresAt })
    .where(and(eq(alarmBoardLink.id, id), isNull(alarmBoardLink.revokedAt)))
    .returning({ id: alarmBoardLink.id });
  return rows.length > 0;
}

export async function boardLinkRevoked(db: Db, id: string): Promise<boolean | null> {
  const [row] = await db
    .select({ revokedAt: alarmBoardLink.revokedAt })
    .from(alarmBoardLink)
    .where(eq(alarmBoardLink.id, id));
  return row ? row.revokedAt !== null : null;
}

/** Revokes a link; false when it was revoked already or is unknown. */
export async function revokeBoardLink(db: Db, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(alarmBoardLink)
    .set({ revokedAt: now })
    .where(and(eq(alarmBoardLink.id, id), isNull(alarmBoardLink.revokedAt)))
    .returning({ id: alarmBoardLink.id });
  return rows.length > 0;
}

/** The link whose code this is (revoked or not, expired or not), or none. */
export async function linkOfCode(
  db: Db,
  codeHash: string,
): Promise<{ id: string; revokedAt: Date | null; codeExpiresAt: Date | null } | undefined> {
  const [row] = await db
    .select({
      id: alarmBoardLink.id,
      revokedAt: alarmBoardLink.revokedAt,
      codeExpiresAt: alarmBoardLink.codeExpiresAt,
    })
    .from(alarmBoardLink)
    .where(eq(alarmBoardLink.codeHash, codeHash))
    .limit(1);
  return row;
}

/**
 * Uses up a code: one statement clears it if it still stands, so of two exchanges of one code only one
 * succeeds. Records the use. Returns the link, or none when the code no longer stands.
 */
export async function useBoardCode(
  db: Db,
  codeHash: string,
  use: { at: Date; ip: string | null },
): Promise<{ id: string } | undefined> {
  const [row] = await db
    .update(alarmBoardLink)
    .set({ codeHash: null, codeExpiresAt: null, lastUsedAt: use.at, lastUsedIp: use.ip })
    .where(
      and(
        eq(alarmBoardLink.codeHash, codeHash),
        isNull(alarmBoardLink.revokedAt),
        sql`${alarmBoardLink.codeExpiresAt} > ${use.at.toISOString()}::timestamptz`,
      ),
    )
    .returning({ id: alarmBoardLink.id });
  return row;
}

export async function insertBoardSession(
  db: Db,
  values: { tokenHash: string; linkId: string; ipAddr: string | null },
): Promise<void> {
  await db.insert(alarmBoardSession).values(values);
}

export interface BoardSessionRecord {
  tokenHash: string;
  linkId: string;
  name: string;
  stationId: string;
  stationName: string;
}

/** A display session whose link is not revoked. */
export async function standingBoardSession(
  db: Db,
  tokenHash: string,
): Promise<BoardSessionRecord | undefined> {
  const [row] = await db
    .select({
      tokenHash: alarmBoardSession.tokenHash,
      linkId: alarmBoardLink.id,
      name: alarmBoardLink.name,
      stationId: alarmBoardLink.stationId,
      stationName: station.name,
    })
    .from(alarmBoardSession)
    .innerJoin(alarmBoardLink, eq(alarmBoardLink.id, alarmBoardSession.linkId))
    .innerJoin(station, eq(station.id, alarmBoardLink.stationId))
    .where(and(eq(alarmBoardSession.tokenHash, tokenHash), isNull(alarmBoardLink.revokedAt)));
  return row;
}

/** Records a use of the link, at most once per `everyMs`. */
export async function touchBoardLink(
  db: Db,
  id: string,
  use: { at: Date; ip: string | null },
  everyMs: number,
): Promise<void> {
  const before = new Date(use.at.getTime() - everyMs).toISOString();
  const due: SQL | undefined = or(
    isNull(alarmBoardLink.lastUsedAt),
    lt(alarmBoardLink.lastUsedAt, sql`${before}::timestamptz`),
    use.ip === null ? undefined : sql`${alarmBoardLink.lastUsedIp} is distinct from ${use.ip}`,
  );
  await db
    .update(alarmBoardLink)
    .set({ lastUsedAt: use.at, lastUsedIp: use.ip })
    .where(and(eq(alarmBoardLink.id, id), due));
}

/** The open alarms (state Warn) of a station, newest first. */
export async function openAlarmsOf(db: Db, stationId: string, limit: number): Promise<AlarmBoardRow[]> {
  const rows = await db
    .select({
      id: deviceAlarm.id,
      deviceId: deviceAlarm.deviceId,
      deviceName: device.name,
      content: deviceAlarm.content,
      severity: deviceAlarm.severity,
      warnTime: deviceAlarm.warnTime,
      ackTime: deviceAlarm.ackTime,
    })
    .from(deviceAlarm)
    .innerJoin(device, eq(device.id, deviceAlarm.deviceId))
    .where(and(eq(deviceAlarm.stationId, stationId), eq(deviceAlarm.state, 'Warn')))
    .orderBy(desc(deviceAlarm.warnTime), desc(deviceAlarm.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, warnTime: r.warnTime.toISOString(), ackTime: iso(r.ackTime) }));
}
