import { ALL_PERMISSIONS } from '@uiot/contracts';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { SessionUser } from '../../http/request-context.ts';
import { staff } from '../org/org.schema.ts';
import { effectivePermissionsSql, isAdminSql } from '../org/staff-access.repository.ts';
import { param } from '../params/params.schema.ts';
import { session } from './auth.schema.ts';
import { FORCED_CHANGE_PARAM, passwordChangeRequired } from './password-change-rule.ts';
import { hashToken, newSessionToken } from './password-hash.ts';

export interface SessionPolicy {
  idleSeconds: number;
  maxSeconds: number;
}

/** The idle expiry is pushed forward at most this often, so reads do not turn into a write each. */
const TOUCH_INTERVAL_MS = 30_000;

/** Opaque-token sessions with idle and absolute expiry, revocable, stored hashed (ARCHITECTURE §4). */
export class SessionService {
  private readonly revokedListeners = new Set<(staffId: string) => void>();

  constructor(
    private readonly db: Db,
    private readonly policy: SessionPolicy,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get idleSeconds(): number {
    return this.policy.idleSeconds;
  }

  async create(staffId: string, ipAddr: string | null): Promise<{ token: string; tokenHash: string }> {
    const { token, tokenHash } = newSessionToken();
    const now = this.now();
    await this.db.insert(session).values({
      tokenHash,
      staffId,
      createdAt: now,
      lastSeenAt: now,
      idleExpiresAt: new Date(now.getTime() + this.policy.idleSeconds * 1000),
      expiresAt: new Date(now.getTime() + this.policy.maxSeconds * 1000),
      ipAddr,
    });
    return { token, tokenHash };
  }

  /**
   * Whether a session still stands (not revoked, neither expiry passed, its user not disabled), the rules of
   * `resolve`, read without pushing the idle expiry forward: an open socket's heartbeat is not the user at
   * work, so it must not keep an unattended console signed in.
   */
  async stands(tokenHash: string): Promise<boolean> {
    const now = this.now();
    const [row] = await this.db
      .select({ staffId: session.staffId })
      .from(session)
      .innerJoin(staff, eq(staff.id, session.staffId))
      .where(
        and(
          eq(session.tokenHash, tokenHash),
          isNull(session.revokedAt),
          gt(session.expiresAt, now),
          gt(session.idleExpiresAt, now),
          eq(staff.status, 'activated'),
        ),
      )
      .limit(1);
    return row !== undefined;
  }

  /** The user behind a token, or null when the token is unknown, revoked, expired or the user disabled. */
  async resolve(token: string): Promise<SessionUser | null> {
    if (!token || token.length > 256) return null;
    const tokenHash = hashToken(token);
    // One round trip: the session, its user, the user's permission keys and the forced-change parameter.
    const [row] = await this.db
      .select({
        staffId: session.staffId,
        lastSeenAt: session.lastSeenAt,
        idleExpiresAt: session.idleExpiresAt,
        expiresAt: session.expiresAt,
        staffName: staff.name,
        status: staff.status,
        mustChangePassword: staff.mustChangePassword,
        forcedChangeParam: sql<
          string | null
        >`(select coalesce(${param.val}, ${param.defVal}) from ${param} where ${param.name} = ${FORCED_CHANGE_PARAM})`,
        isAdmin: isAdminSql(sql`${session.staffId}`),
        permissions: effectivePermissionsSql(sql`${session.staffId}`, sql`${staff.deptId}`),
      })
      .from(session)
      .innerJoin(staff, eq(staff.id, session.staffId))
      .where(and(eq(session.tokenHash, tokenHash), isNull(session.revokedAt)));
    const now = this.now();
    if (row?.status !== 'activated') return null;
    if (row.expiresAt <= now || row.idleExpiresAt <= now) return null;
    if (now.getTime() - row.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
      const idle = new Date(now.getTime() + this.policy.idleSeconds * 1000);
      await this.db
        .update(session)
        .set({ lastSeenAt: now, idleExpiresAt: idle < row.expiresAt ? idle : row.expiresAt })
        .where(eq(session.tokenHash, tokenHash));
    }
    const access = {
      isAdmin: row.isAdmin,
      permissions: new Set<string>(row.isAdmin ? ALL_PERMISSIONS : row.permissions),
    };
    return {
      tokenHash,
      staffId: row.staffId,
      staffName: row.staffName,
      isAdmin: access.isAdmin,
      permissions: access.permissions,
      mustChangePassword: passwordChangeRequired(row.staffId, row.mustChangePassword, row.forcedChangeParam),
    };
  }

  /** Called with the staff id whenever sessions of that user end (e.g. to drop its broker connections). */
  onRevoked(listener: (staffId: string) => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }

  private notifyRevoked(staffIds: string[]): void {
    for (const staffId of new Set(staffIds)) for (const listener of this.revokedListeners) listener(staffId);
  }

  async revoke(tokenHash: string): Promise<void> {
    const ended = await this.db
      .update(session)
      .set({ revokedAt: this.now() })
      .where(and(eq(session.tokenHash, tokenHash), isNull(session.revokedAt)))
      .returning({ staffId: session.staffId });
    this.notifyRevoked(ended.map((r) => r.staffId));
  }

  /** Revokes every session of a user but the one kept (password change, disable, reset). */
  async revokeAllOf(staffId: string, keepTokenHash?: string): Promise<void> {
    const ended = await this.db
      .update(session)
      .set({ revokedAt: this.now() })
      .where(
        and(
          eq(session.staffId, staffId),
          isNull(session.revokedAt),
          keepTokenHash ? ne(session.tokenHash, keepTokenHash) : undefined,
        ),
      )
      .returning({ staffId: session.staffId });
    this.notifyRevoked(ended.map((r) => r.staffId));
  }
}
