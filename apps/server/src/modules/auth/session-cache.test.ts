import { describe, expect, it } from 'vitest';
import type { SessionUser } from '../../http/request-context.ts';
import {
  type CachedSession,
  PendingTouches,
  parseSessionChange,
  SessionCache,
  type SessionCacheOptions,
  type UserProfile,
} from './session-cache.ts';

const T0 = new Date('2026-01-01T00:00:00Z').getTime();
const IDLE_MS = 60_000;

function user(staffId: string, tokenHash: string): SessionUser {
  return {
    tokenHash,
    staffId,
    staffName: staffId,
    isAdmin: false,
    permissions: new Set(['staff.read']),
    mustChangePassword: false,
  };
}

function entry(staffId: string, tokenHash: string, readAt = T0): CachedSession {
  return {
    user: user(staffId, tokenHash),
    expiresAt: readAt + 300_000,
    idleExpiresAt: readAt + IDLE_MS,
    pushedAt: readAt,
    readAt,
  };
}

/** A cache that follows changes, holding the given sessions (token hash → staff id); entries age in an hour. */
function holding(sessions: Record<string, string>, options: SessionCacheOptions = {}): SessionCache {
  const cache = new SessionCache({ maxAgeMs: 3_600_000, ...options });
  cache.follow(true);
  for (const [tokenHash, staffId] of Object.entries(sessions)) {
    expect(cache.store(cache.begin(), tokenHash, entry(staffId, tokenHash))).toBe(true);
  }
  return cache;
}

const held = (cache: SessionCache, tokenHash: string, now = T0) => cache.peek(tokenHash, now) !== undefined;

describe('parseSessionChange', () => {
  it('reads the payloads of the triggers', () => {
    expect(parseSessionChange('session:abc')).toEqual({ scope: 'session', tokenHash: 'abc' });
    expect(parseSessionChange('staff:s-1')).toEqual({ scope: 'staff', staffId: 's-1' });
    expect(parseSessionChange('staff:a:b')).toEqual({ scope: 'staff', staffId: 'a:b' });
    expect(parseSessionChange('all')).toEqual({ scope: 'all' });
  });

  it('takes a payload it cannot place for a change that may touch anyone', () => {
    for (const payload of ['', 'staff:', 'session:', ':x', 'role:r-1', 'everything']) {
      expect(parseSessionChange(payload), payload).toEqual({ scope: 'all' });
    }
  });
});

describe('SessionCache', () => {
  it('keeps nothing while it does not follow changes', () => {
    const cache = new SessionCache();
    expect(cache.following).toBe(false);
    expect(cache.store(cache.begin(), 'h1', entry('s1', 'h1'))).toBe(false);
    expect(cache.size).toBe(0);
  });

  it('drops one session, every session of a user, or everything', () => {
    const cache = holding({ h1: 's1', h2: 's1', h3: 's2', h4: 's3' });
    cache.apply({ scope: 'session', tokenHash: 'h3' });
    expect(['h1', 'h2', 'h3', 'h4'].map((h) => held(cache, h))).toEqual([true, true, false, true]);
    cache.apply({ scope: 'staff', staffId: 's1' });
    expect(['h1', 'h2', 'h3', 'h4'].map((h) => held(cache, h))).toEqual([false, false, false, true]);
    cache.apply({ scope: 'all' });
    expect(cache.size).toBe(0);
  });

  it('does not store a read that began before a change, whatever the change touched', () => {
    for (const change of [
      { scope: 'session', tokenHash: 'h1' },
      { scope: 'staff', staffId: 'someone else' },
      { scope: 'all' },
    ] as const) {
      const cache = holding({});
      const ticket = cache.begin();
      cache.apply(change);
      expect(cache.store(ticket, 'h1', entry('s1', 'h1')), change.scope).toBe(false);
      expect(cache.store(cache.begin(), 'h1', entry('s1', 'h1'))).toBe(true);
    }
  });

  it('drops everything and stores no read under way when following stops or starts again', () => {
    const cache = holding({ h1: 's1' });
    const before = cache.begin();
    cache.follow(false);
    expect(cache.size).toBe(0);
    expect(cache.store(cache.begin(), 'h1', entry('s1', 'h1'))).toBe(false);
    const whileLost = cache.begin();
    cache.follow(true);
    // Reads begun before listening again may have missed a change announced while it was lost.
    expect(cache.store(before, 'h1', entry('s1', 'h1'))).toBe(false);
    expect(cache.store(whileLost, 'h1', entry('s1', 'h1'))).toBe(false);
    expect(cache.store(cache.begin(), 'h1', entry('s1', 'h1'))).toBe(true);
  });

  it('pushes the idle end forward on use, never past the absolute end', () => {
    const cache = holding({ h1: 's1' });
    const used = cache.use('h1', T0 + 50_000, IDLE_MS);
    expect(used).toMatchObject({ idleExpiresAt: T0 + 110_000 });
    expect(cache.use('h1', T0 + 100_000, IDLE_MS)).toMatchObject({ idleExpiresAt: T0 + 160_000 });
    // Read again within a minute of the absolute end: the idle end stops there.
    const late = holding({});
    late.store(late.begin(), 'h2', { ...entry('s1', 'h2', T0 + 280_000), expiresAt: T0 + 300_000 });
    expect(late.use('h2', T0 + 290_000, IDLE_MS)).toMatchObject({ idleExpiresAt: T0 + 300_000 });
  });

  it('hands an idle session back to the database, which may know of a use elsewhere', () => {
    const cache = holding({ h1: 's1' });
    expect(cache.use('h1', T0 + IDLE_MS - 1, IDLE_MS)).toBeTypeOf('object');
    const idle = holding({ h1: 's1' });
    expect(idle.use('h1', T0 + IDLE_MS, IDLE_MS)).toBeUndefined();
    expect(idle.size).toBe(0);
  });

  it('refuses a session at its absolute end', () => {
    const cache = holding({ h1: 's1' });
    const end = T0 + 300_000;
    // Kept alive by use up to the end.
    for (let at = T0 + 50_000; at < end; at += 50_000)
      expect(cache.use('h1', at, IDLE_MS)).toBeTypeOf('object');
    expect(cache.use('h1', end - 1, IDLE_MS)).toBeTypeOf('object');
    expect(cache.use('h1', end, IDLE_MS)).toBe('ended');
    expect(cache.size).toBe(0);
  });

  it('reads an entry again once it is older than the longest age', () => {
    const cache = holding({ h1: 's1' }, { maxAgeMs: 10_000 });
    expect(cache.use('h1', T0 + 9_999, IDLE_MS)).toBeTypeOf('object');
    expect(cache.use('h1', T0 + 10_000, IDLE_MS)).toBeUndefined();
  });

  it('peeks without pushing the idle end', () => {
    const cache = holding({ h1: 's1' });
    expect(cache.peek('h1', T0 + 50_000)).toMatchObject({ idleExpiresAt: T0 + IDLE_MS });
    expect(cache.peek('h1', T0 + IDLE_MS)).toBeUndefined();
  });

  it('holds at most the bound, the oldest read going first', () => {
    const cache = holding({ h1: 's1', h2: 's2', h3: 's3' }, { maxEntries: 3 });
    cache.store(cache.begin(), 'h4', entry('s4', 'h4'));
    expect(cache.size).toBe(3);
    expect(['h1', 'h2', 'h3', 'h4'].map((h) => held(cache, h))).toEqual([false, true, true, true]);
    // Storing a session again makes it the newest.
    cache.store(cache.begin(), 'h2', entry('s2', 'h2'));
    cache.store(cache.begin(), 'h5', entry('s5', 'h5'));
    expect(['h2', 'h3', 'h4', 'h5'].map((h) => held(cache, h))).toEqual([true, false, true, true]);
  });

  it('sweeps the sessions that ended or went idle', () => {
    const cache = holding({ h1: 's1', h2: 's2' });
    cache.use('h2', T0 + 50_000, IDLE_MS);
    cache.sweep(T0 + IDLE_MS);
    expect(cache.size).toBe(1);
    expect(held(cache, 'h2', T0 + IDLE_MS)).toBe(true);
  });
});

describe('SessionCache: profiles', () => {
  const profile = (name: string): UserProfile => ({
    name,
    avatar: null,
    email: null,
    telNo: null,
    deptName: null,
    roleNames: [],
    mustChangePassword: false,
    stationId: 'st',
  });
  const profileOf = (cache: SessionCache, tokenHash: string) => {
    const held = cache.peek(tokenHash, T0);
    return typeof held === 'object' ? held.profile : undefined;
  };

  it('keeps a profile with its held session, and drops it with the session', () => {
    const cache = holding({ a: 's-1', b: 's-2' });
    expect(cache.storeProfile(cache.begin(), 'a', profile('A'), T0)).toBe(true);
    expect(cache.storeProfile(cache.begin(), 'b', profile('B'), T0)).toBe(true);
    expect(profileOf(cache, 'a')?.name).toBe('A');
    cache.apply({ scope: 'staff', staffId: 's-1' });
    expect(profileOf(cache, 'a')).toBeUndefined();
    expect(profileOf(cache, 'b')?.name).toBe('B');
    cache.apply({ scope: 'all' });
    expect(held(cache, 'b')).toBe(false);
  });

  it('does not keep a profile read before a change, whatever the change touched', () => {
    const cache = holding({ a: 's-1', b: 's-2' });
    const ticket = cache.begin();
    cache.apply({ scope: 'staff', staffId: 's-2' });
    expect(cache.storeProfile(ticket, 'a', profile('A'), T0)).toBe(false);
    expect(profileOf(cache, 'a')).toBeUndefined();
  });

  it('keeps no profile without a held session, or while it does not follow changes', () => {
    const cache = holding({ a: 's-1' });
    expect(cache.storeProfile(cache.begin(), 'unknown', profile('X'), T0)).toBe(false);
    expect(cache.storeProfile(cache.begin(), 'a', profile('A'), T0 + IDLE_MS)).toBe(false);
    const stopped = holding({ a: 's-1' });
    stopped.follow(false);
    expect(stopped.storeProfile(stopped.begin(), 'a', profile('A'), T0)).toBe(false);
  });
});

describe('PendingTouches', () => {
  const touch = (tokenHash: string, seenAt: number) => ({
    tokenHash,
    seenAt,
    idleExpiresAt: seenAt + IDLE_MS,
  });

  it('keeps the latest touch of each session and counts it until it is written', () => {
    const touches = new PendingTouches();
    touches.record(touch('h1', T0 + 10));
    touches.record(touch('h1', T0 + 5));
    touches.record(touch('h2', T0));
    expect(touches.size).toBe(2);
    expect(touches.idleExpiresAtOf('h1')).toBe(T0 + 10 + IDLE_MS);
    const batch = touches.take();
    expect(batch).toHaveLength(2);
    expect(touches.size).toBe(0);
    // Being written, it still counts.
    expect(touches.idleExpiresAtOf('h1')).toBe(T0 + 10 + IDLE_MS);
    touches.record(touch('h1', T0 + 20));
    touches.written(batch);
    expect(touches.idleExpiresAtOf('h1')).toBe(T0 + 20 + IDLE_MS);
    expect(touches.idleExpiresAtOf('h2')).toBeUndefined();
  });

  it('queues a batch that failed again, behind newer touches of the same sessions', () => {
    const touches = new PendingTouches();
    touches.record(touch('h1', T0));
    touches.record(touch('h2', T0));
    const batch = touches.take();
    touches.record(touch('h1', T0 + 30));
    touches.failed(batch);
    const again = touches.take();
    expect(again.map((t) => [t.tokenHash, t.seenAt]).sort()).toEqual([
      ['h1', T0 + 30],
      ['h2', T0],
    ]);
  });
});
