import { ALL_PERMISSIONS } from '@uiot/contracts';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { type Database, type Db, SESSION_CHANGE_CHANNEL } from '../../db/client.ts';
import type { SessionUser } from '../../http/request-context.ts';
import { listenOnDatabase } from '../../infra/database-listener.ts';
import { EventBus } from '../../infra/events/event-bus.ts';
import { errorMessage, LogThrottle, type ModuleLogger } from '../../lib/module-logger.ts';
import { hashToken, newSessionToken } from '../../lib/password-hash.ts';
import { effectivePermissionsSql, isAdminSql } from '../org/index.ts';
import { staff } from '../org/org.schema.ts';
import { param } from '../params/params.schema.ts';
import { session } from './auth.schema.ts';
import { FORCED_CHANGE_PARAM, passwordChangeRequired } from './password-change-rule.ts';
import {
  PendingTouches,
  parseSessionChange,
  SessionCache,
  type SessionCacheOptions,
  type SessionChange,
  type SessionTouch,
  type UserProfile,
} from './session-cache.ts';
import './events.ts';

export interface SessionPolicy {
  idleSeconds: number;
  maxSeconds: number;
}

/** The idle expiry is pushed forward in the database at most this often per session. */
const TOUCH_INTERVAL_MS = 30_000;
/** How often queued idle pushes are written (while sessions are served from memory). */
const TOUCH_FLUSH_MS = 1_000;
/** How often entries of ended sessions are dropped from memory. */
const SWEEP_MS = 60_000;
/** Most idle pushes written by one statement. */
const TOUCH_BATCH = 500;

/** Role `admin` holds every key: one set shared by every administrator's session. */
const EVERY_KEY: ReadonlySet<string> = new Set(ALL_PERMISSIONS);

/**
 * Opaque-token sessions with idle and absolute expiry, revocable, stored hashed (ARCHITECTURE §4).
 *
 * Once started, resolved sessions are served from memory: the database's triggers (migration
 * 0009_session_changes) announce every change of a session, its user, the user's permission keys or the
 * forced-change parameter on a LISTEN channel, and each notice drops what it touches. A write of this
 * process is heard before it returns (PGlite delivers in process; on PostgreSQL every pooled connection
 * listens and a session receives the notices of its own commit before the commit's answer); other
 * instances hear it on their listening connection. While that connection is lost nothing is kept.
 */
export class SessionService {
  private readonly cache: SessionCache;
  private readonly touches = new PendingTouches();
  /** Reads under way, by token hash, with the cache generation they began in. */
  private readonly reading = new Map<string, { ticket: number; result: Promise<SessionUser | null> }>();
  /** Set while started: idle pushes are queued and written in batches. */
  private flusher: { timer: NodeJS.Timeout; running: Promise<void> | null; logger: ModuleLogger } | null =
    null;
  private readonly flushFailures = new LogThrottle();

  constructor(
    private readonly db: Db,
    private readonly policy: SessionPolicy,
    private readonly now: () => Date = () => new Date(),
    cacheOptions: SessionCacheOptions = {},
    /** Where `session.changed` and `session.revoked` are published. */
    readonly events: EventBus = new EventBus(),
  ) {
    this.cache = new SessionCache(cacheOptions);
  }

  get idleSeconds(): number {
    return this.policy.idleSeconds;
  }

  /** Whether the database's change notices are heard now (while not, nothing that depends on them is kept). */
  get followsChanges(): boolean {
    return this.cache.following;
  }

  /** Whether a session is served from memory (diagnostics and tests). */
  holds(tokenHash: string): boolean {
    return typeof this.cache.peek(tokenHash, this.now().getTime()) === 'object';
  }

  /**
   * The profile of a resolved session's user: kept with the session while it is held, read with `read`
   * otherwise (and kept, unless a change came in while it was read).
   */
  async profile(tokenHash: string, read: () => Promise<UserProfile | null>): Promise<UserProfile | null> {
    const held = this.cache.peek(tokenHash, this.now().getTime());
    if (typeof held === 'object' && held.profile) return held.profile;
    const ticket = this.cache.begin();
    const profile = await read();
    if (profile) this.cache.storeProfile(ticket, tokenHash, profile, this.now().getTime());
    return profile;
  }

  /**
   * Follows the database's session changes and serves resolved sessions from memory from then on; idle
   * pushes are written in batches. Returns the stop, which writes what is queued.
   */
  async start(
    database: Pick<Database, 'db' | 'kind'>,
    logger: ModuleLogger,
    options: { reconnectMs?: number } = {},
  ): Promise<() => Promise<void>> {
    if (this.flusher) throw new Error('the session service is already started');
    const heard = (payload: string) => {
      const change = parseSessionChange(payload);
      this.cache.apply(change);
      this.announce(change);
    };
    // Changes made while nobody listened are unknown: whatever may depend on them is looked at again.
    const following = (listening: boolean) => {
      this.cache.follow(listening);
      if (listening) this.announce({ scope: 'all' });
    };
    const listener = await listenOnDatabase(database, {
      channel: SESSION_CHANGE_CHANNEL,
      name: 'session change',
      logger,
      ...options,
      poolConnections: true,
      onNotification: heard,
      onListening: following,
    });
    const stopListening = () => listener.close();
    let lastSweep = Date.now();
    const timer = setInterval(() => {
      void this.flushTouches();
      if (Date.now() - lastSweep >= SWEEP_MS) {
        lastSweep = Date.now();
        this.cache.sweep(this.now().getTime());
      }
    }, TOUCH_FLUSH_MS);
    timer.unref();
    this.flusher = { timer, running: null, logger };
    return async () => {
      const flusher = this.flusher;
      if (!flusher) return;
      clearInterval(flusher.timer);
      this.cache.follow(false);
      await flusher.running;
      await this.flushTouches();
      this.flusher = null;
      await stopListening();
    };
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
   * work, so it must not keep an unattended console signed in. Always read from the database: another
   * instance asks right after telling that sessions ended, which may reach it before the change notice.
   */
  async stands(tokenHash: string): Promise<boolean> {
    const [row] = await this.db
      .select({ idleExpiresAt: session.idleExpiresAt, expiresAt: session.expiresAt })
      .from(session)
      .innerJoin(staff, eq(staff.id, session.staffId))
      .where(and(eq(session.tokenHash, tokenHash), isNull(session.revokedAt), eq(staff.status, 'activated')))
      .limit(1);
    if (!row) return false;
    const now = this.now().getTime();
    return row.expiresAt.getTime() > now && this.idleEndOf(tokenHash, row.idleExpiresAt, now) > now;
  }

  /**
   * The user of a session by its token hash, by the rules of `resolve`, without counting as a use: for
   * looking again at a connection that is open already (live data), which must not keep an unattended
   * console signed in. Served from memory when held; a read from the database is not kept.
   */
  async userOf(tokenHash: string): Promise<SessionUser | null> {
    const held = this.cache.peek(tokenHash, this.now().getTime());
    if (held === 'ended') return null;
    if (held) return held.user;
    return this.read(tokenHash, null);
  }

  /** The user behind a token, or null when the token is unknown, revoked, expired or the user disabled. */
  async resolve(token: string): Promise<SessionUser | null> {
    if (!token || token.length > 256) return null;
    const tokenHash = hashToken(token);
    const now = this.now().getTime();
    const held = this.cache.use(tokenHash, now, this.policy.idleSeconds * 1000);
    if (held === 'ended') return null;
    if (held) {
      if (this.touchDue(held.pushedAt, now)) {
        held.pushedAt = now;
        await this.touch({ tokenHash, seenAt: now, idleExpiresAt: held.idleExpiresAt });
      }
      return held.user;
    }
    return this.load(tokenHash);
  }

  /**
   * Reads a session from the database, keeps it in memory when it may, and counts the read as a use.
   * While changes are followed, requests of one session that miss together (a console opening a page)
   * share one read, unless a change came in since it began: a request made after a change never gets what
   * was read before it.
   */
  private load(tokenHash: string): Promise<SessionUser | null> {
    const ticket = this.cache.begin();
    const under = this.reading.get(tokenHash);
    if (under?.ticket === ticket && this.cache.following) return under.result;
    const result = this.read(tokenHash, ticket).finally(() => {
      if (this.reading.get(tokenHash)?.result === result) this.reading.delete(tokenHash);
    });
    this.reading.set(tokenHash, { ticket, result });
    return result;
  }

  /** Reads a session; with a ticket the read counts as a use (idle push) and is kept in memory. */
  private async read(tokenHash: string, ticket: number | null): Promise<SessionUser | null> {
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
    const now = this.now().getTime();
    if (row?.status !== 'activated') return null;
    const expiresAt = row.expiresAt.getTime();
    if (expiresAt <= now || this.idleEndOf(tokenHash, row.idleExpiresAt, now) <= now) return null;
    const user: SessionUser = {
      tokenHash,
      staffId: row.staffId,
      staffName: row.staffName,
      isAdmin: row.isAdmin,
      permissions: row.isAdmin ? EVERY_KEY : new Set<string>(row.permissions),
      mustChangePassword: passwordChangeRequired(row.staffId, row.mustChangePassword, row.forcedChangeParam),
    };
    if (ticket === null) return user;
    const idleExpiresAt = Math.min(expiresAt, now + this.policy.idleSeconds * 1000);
    let pushedAt = row.lastSeenAt.getTime();
    if (this.touchDue(pushedAt, now)) {
      pushedAt = now;
      await this.touch({ tokenHash, seenAt: now, idleExpiresAt });
    }
    this.cache.store(ticket, tokenHash, { user, expiresAt, idleExpiresAt, pushedAt, readAt: now });
    return user;
  }

  /** The idle end of a session: the stored one, or a later one this instance knows of. */
  private idleEndOf(tokenHash: string, stored: Date, now: number): number {
    const held = this.cache.peek(tokenHash, now);
    return Math.max(
      stored.getTime(),
      this.touches.idleExpiresAtOf(tokenHash) ?? 0,
      typeof held === 'object' ? held.idleExpiresAt : 0,
    );
  }

  private touchDue(pushedAt: number, now: number): boolean {
    return now - pushedAt >= TOUCH_INTERVAL_MS;
  }

  /** Pushes the idle expiry forward: queued while started, written at once otherwise. */
  private async touch(touch: SessionTouch): Promise<void> {
    if (this.flusher) this.touches.record(touch);
    else await this.writeTouches([touch]);
  }

  private flushTouches(): Promise<void> {
    const flusher = this.flusher;
    if (!flusher || flusher.running || this.touches.size === 0) return flusher?.running ?? Promise.resolve();
    const batch = this.touches.take();
    const running = (async () => {
      for (let i = 0; i < batch.length; i += TOUCH_BATCH) {
        const part = batch.slice(i, i + TOUCH_BATCH);
        try {
          await this.writeTouches(part);
          this.touches.written(part);
        } catch (error) {
          this.touches.failed(part);
          if (this.flushFailures.allows()) {
            flusher.logger.warn({ error: errorMessage(error) }, 'session idle expiry not pushed forward');
          }
        }
      }
    })().finally(() => {
      flusher.running = null;
    });
    flusher.running = running;
    return running;
  }

  /** Stores idle pushes; an idle end never moves back (another instance may have pushed it further). */
  private async writeTouches(batch: readonly SessionTouch[]): Promise<void> {
    const values = sql.join(
      batch.map(
        (t) =>
          sql`(${t.tokenHash}, ${new Date(t.seenAt).toISOString()}::timestamptz, ${new Date(t.idleExpiresAt).toISOString()}::timestamptz)`,
      ),
      sql`, `,
    );
    await this.db.execute(sql`
      update ${session} set
        last_seen_at = greatest(${session.lastSeenAt}, v.seen_at),
        idle_expires_at = least(${session.expiresAt}, greatest(${session.idleExpiresAt}, v.idle_expires_at))
      from (values ${values}) as v(token_hash, seen_at, idle_expires_at)
      where ${session.tokenHash} = v.token_hash and ${session.revokedAt} is null`);
  }

  /**
   * Every change of sessions heard from the database (any instance's, or SQL by hand), after what it touches
   * has left memory, and `all` whenever changes are followed again after a gap: what was resolved from
   * sessions before (live data connections) is to be looked at again.
   */
  private announce(change: SessionChange): void {
    this.events.publishCommitted('session.changed', change);
  }

  /** Sessions of these users ended (e.g. to drop their broker connections). */
  private notifyRevoked(staffIds: string[]): void {
    for (const staffId of new Set(staffIds)) this.events.publish('session.revoked', { staffId });
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
