import type { SessionUser } from '../../http/request-context.ts';

/**
 * What a change told by the database touches (the triggers of migration 0009_session_changes): one
 * session, everything of one user, or what may touch any user (role and department grants, department
 * moves, the forced-change parameter).
 */
export type SessionChange =
  | { scope: 'session'; tokenHash: string }
  | { scope: 'staff'; staffId: string }
  | { scope: 'all' };

/** Reads a trigger's payload; one that cannot be placed may touch anyone, so it counts as `all`. */
export function parseSessionChange(payload: string): SessionChange {
  const colon = payload.indexOf(':');
  const id = payload.slice(colon + 1);
  if (colon > 0 && id) {
    const kind = payload.slice(0, colon);
    if (kind === 'session') return { scope: 'session', tokenHash: id };
    if (kind === 'staff') return { scope: 'staff', staffId: id };
  }
  return { scope: 'all' };
}

/**
 * What `getUserInfo` shows of the session's user beyond the session itself, kept with the session once
 * asked for: the triggers announce changes to each part (the user's row, the department's and the roles'
 * names, the station).
 */
export interface UserProfile {
  name: string;
  avatar: string | null;
  email: string | null;
  telNo: string | null;
  deptName: string | null;
  roleNames: string[];
  /** The user's own flag, before the forced-change parameter is applied. */
  mustChangePassword: boolean;
  stationId: string | null;
}

/** A resolved session kept in memory. Times are epoch milliseconds. */
export interface CachedSession {
  user: SessionUser;
  /** The user's profile, once asked for while held. */
  profile?: UserProfile;
  /** The absolute end: nothing extends it. */
  expiresAt: number;
  /** The idle end as known here: the stored one, pushed forward by every use on this instance. */
  idleExpiresAt: number;
  /** The use whose idle push was last handed to the database (stored or queued). */
  pushedAt: number;
  /** When it was read from the database. */
  readAt: number;
}

export interface SessionCacheOptions {
  /** Most sessions kept; the oldest read goes first (default 5 000). */
  maxEntries?: number;
  /**
   * Longest an entry is served before it is read again (default 60 s): a listening connection can die
   * without the socket noticing, and an entry must not outlive a revocation it could not hear of by more.
   */
  maxAgeMs?: number;
}

/**
 * Sessions resolved from the database, served from memory while the database's change notices are
 * followed. Every change notice and every change of following bumps a generation: a lookup that read the
 * database before it stores nothing, so a stale read never lands after the invalidation that made it stale.
 * No I/O: the session service feeds it.
 */
export class SessionCache {
  private readonly entries = new Map<string, CachedSession>();
  private readonly maxEntries: number;
  private readonly maxAgeMs: number;
  private generation = 0;
  private followingChanges = false;

  constructor(options: SessionCacheOptions = {}) {
    this.maxEntries = Math.max(1, options.maxEntries ?? 5_000);
    this.maxAgeMs = Math.max(0, options.maxAgeMs ?? 60_000);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Whether change notices are being received, i.e. whether entries may be kept at all. */
  get following(): boolean {
    return this.followingChanges;
  }

  /** Call before reading a session from the database; hand the ticket to `store`. */
  begin(): number {
    return this.generation;
  }

  /**
   * Keeps a session read under `ticket`, unless a change (or a change of following) came in since, or
   * changes are not followed. Returns whether it was kept.
   */
  store(ticket: number, tokenHash: string, entry: CachedSession): boolean {
    if (!this.followingChanges || ticket !== this.generation) return false;
    this.entries.delete(tokenHash);
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    this.entries.set(tokenHash, entry);
    return true;
  }

  /**
   * The session as used now, its idle end pushed forward to `now + idleMs` (never past the absolute end).
   * `ended` when its absolute end has passed; undefined when it is not here, is idle here (another instance
   * may have kept it alive: the database decides) or was read too long ago.
   */
  use(tokenHash: string, now: number, idleMs: number): CachedSession | 'ended' | undefined {
    const entry = this.peek(tokenHash, now);
    if (entry === undefined || entry === 'ended') return entry;
    entry.idleExpiresAt = Math.min(entry.expiresAt, now + idleMs);
    return entry;
  }

  /** Like `use`, without counting as a use. */
  peek(tokenHash: string, now: number): CachedSession | 'ended' | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (now >= entry.expiresAt) {
      this.entries.delete(tokenHash);
      return 'ended';
    }
    if (now >= entry.idleExpiresAt || now - entry.readAt >= this.maxAgeMs) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry;
  }

  /**
   * Keeps a profile read under `ticket` with the session held for `tokenHash`, unless a change (or a change
   * of following) came in since, or the session is not held. Returns whether it was kept.
   */
  storeProfile(ticket: number, tokenHash: string, profile: UserProfile, now: number): boolean {
    if (!this.followingChanges || ticket !== this.generation) return false;
    const entry = this.peek(tokenHash, now);
    if (typeof entry !== 'object') return false;
    entry.profile = profile;
    return true;
  }

  /** Drops what a change touches; lookups under way store nothing. */
  apply(change: SessionChange): void {
    this.generation++;
    if (change.scope === 'all') {
      this.entries.clear();
    } else if (change.scope === 'session') {
      this.entries.delete(change.tokenHash);
    } else {
      for (const [tokenHash, entry] of this.entries) {
        if (entry.user.staffId === change.staffId) this.entries.delete(tokenHash);
      }
    }
  }

  /**
   * Starts or stops keeping entries. Either way everything held goes and lookups under way store nothing:
   * changes may have been missed while not following.
   */
  follow(following: boolean): void {
    this.generation++;
    this.entries.clear();
    this.followingChanges = following;
  }

  /** Drops the entries whose session has ended or gone idle here, or that were read too long ago. */
  sweep(now: number): void {
    for (const tokenHash of [...this.entries.keys()]) this.peek(tokenHash, now);
  }
}

/** A use of a session whose idle push is to be written to the database. Times are epoch milliseconds. */
export interface SessionTouch {
  tokenHash: string;
  seenAt: number;
  idleExpiresAt: number;
}

/**
 * The idle pushes not yet stored, written in batches: they count as the session's idle end until the
 * database has them, so a session used here is never refused here because the write is still to come.
 */
export class PendingTouches {
  private queued = new Map<string, SessionTouch>();
  private writing = new Map<string, SessionTouch>();

  get size(): number {
    return this.queued.size;
  }

  record(touch: SessionTouch): void {
    const queued = this.queued.get(touch.tokenHash);
    if (!queued || queued.seenAt <= touch.seenAt) this.queued.set(touch.tokenHash, touch);
  }

  /** The latest idle end recorded for a session and not known to be stored. */
  idleExpiresAtOf(tokenHash: string): number | undefined {
    const a = this.queued.get(tokenHash)?.idleExpiresAt;
    const b = this.writing.get(tokenHash)?.idleExpiresAt;
    if (a === undefined) return b;
    return b === undefined ? a : Math.max(a, b);
  }

  /** The queued touches, now being written. */
  take(): SessionTouch[] {
    for (const [tokenHash, touch] of this.queued) this.writing.set(tokenHash, touch);
    const batch = [...this.queued.values()];
    this.queued = new Map();
    return batch;
  }

  /** The batch is stored. */
  written(batch: readonly SessionTouch[]): void {
    for (const touch of batch) {
      if (this.writing.get(touch.tokenHash) === touch) this.writing.delete(touch.tokenHash);
    }
  }

  /** The batch could not be written: queued again (behind newer touches of the same sessions). */
  failed(batch: readonly SessionTouch[]): void {
    this.written(batch);
    for (const touch of batch) this.record(touch);
  }
}
