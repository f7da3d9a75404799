import { and, eq, gt, isNotNull, isNull, lte, ne, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { session } from '../auth/auth.schema.ts';
import { staff } from '../org/org.schema.ts';

/**
 * Token hashes of a user's sessions that no longer stand (revoked, idle-expired, or the user disabled) but
 * have not reached their absolute expiry: the sessions whose console accounts a revocation removes. Older
 * ones are the periodic sweep's, so the list stays as short as the sessions of one session lifetime.
 */
export async function endedSessionsOf(db: Db, staffId: string, now: Date = new Date()): Promise<string[]> {
  const rows = await db
    .select({ tokenHash: session.tokenHash })
    .from(session)
    .innerJoin(staff, eq(staff.id, session.staffId))
    .where(
      and(
        eq(session.staffId, staffId),
        gt(session.expiresAt, now),
        or(isNotNull(session.revokedAt), lte(session.idleExpiresAt, now), ne(staff.status, 'activated')),
      ),
    );
  return rows.map((row) => row.tokenHash);
}

/**
 * Token hashes of a user's sessions that have not been revoked nor reached their absolute expiry: the
 * sessions whose console accounts a change of the user's permissions touches (whether each still stands is
 * decided when it is read).
 */
export async function openSessionsOf(db: Db, staffId: string, now: Date = new Date()): Promise<string[]> {
  const rows = await db
    .select({ tokenHash: session.tokenHash })
    .from(session)
    .where(and(eq(session.staffId, staffId), isNull(session.revokedAt), gt(session.expiresAt, now)));
  return rows.map((row) => row.tokenHash);
}
