/**
 * Sign-in throttling, a pure rule (no I/O): after a few failures each further attempt must wait a growing
 * delay, and a key may be locked for a while after many failures. The same rule runs on each of the keys of
 * an attempt (docs/security.md, *Sign-in throttling*), with a policy of its own for each.
 */
export interface ThrottlePolicy {
  /** Failures allowed without any wait. */
  freeFailures: number;
  /** Wait after the last free failure. */
  baseDelayMs: number;
  /** How the wait grows with each further failure: doubling (default), or by `baseDelayMs` each time. */
  growth?: 'doubling' | 'linear';
  maxDelayMs: number;
  /** Failures that lock the key; `Infinity`: never locked, only delayed. */
  lockAfter: number;
  lockMs: number;
  /** A failure older than this no longer counts. */
  windowMs: number;
}

/**
 * One account name from one client address: the guesser's own counter. Being locked here keeps that
 * address away from that account only; the owner signs in from any other address.
 */
export const ACCOUNT_ADDRESS_POLICY: ThrottlePolicy = {
  freeFailures: 3,
  baseDelayMs: 2_000,
  maxDelayMs: 60_000,
  lockAfter: 8,
  lockMs: 15 * 60_000,
  windowMs: 15 * 60_000,
};

/** One client address, whatever the account names: a single address spraying many accounts. */
export const ADDRESS_POLICY: ThrottlePolicy = {
  freeFailures: 10,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  lockAfter: 40,
  lockMs: 15 * 60_000,
  windowMs: 15 * 60_000,
};

/**
 * One account name from every address: the bound against guessing spread over many addresses. It never
 * locks: after 10 failures each attempt waits 1 s more than the last, up to 60 s, so that at most about 100
 * failures an hour reach an account (OWASP ASVS 2.2.1) and the owner is never locked out. One address alone
 * never reaches it: it is locked after 8 failures for 15 min, longer than this window, so its failures are
 * forgotten here before it may fail again.
 */
export const ACCOUNT_POLICY: ThrottlePolicy = {
  freeFailures: 10,
  baseDelayMs: 1_000,
  growth: 'linear',
  maxDelayMs: 60_000,
  lockAfter: Number.POSITIVE_INFINITY,
  lockMs: 0,
  windowMs: 10 * 60_000,
};

export interface ThrottleState {
  failures: number;
  lastFailureAt: Date | null;
  lockedUntil: Date | null;
}

export const EMPTY_THROTTLE: ThrottleState = { failures: 0, lastFailureAt: null, lockedUntil: null };

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterMs: number };

/** Counts only failures inside the window; an expired lock is forgotten. */
function current(state: ThrottleState, now: Date, policy: ThrottlePolicy): ThrottleState {
  const lockActive = state.lockedUntil !== null && state.lockedUntil.getTime() > now.getTime();
  if (lockActive) return state;
  const stale =
    state.lastFailureAt === null || now.getTime() - state.lastFailureAt.getTime() > policy.windowMs;
  const lockExpired = state.lockedUntil !== null;
  return stale || lockExpired ? EMPTY_THROTTLE : state;
}

/** The wait imposed before the next attempt once `failures` failures are counted. */
export function delayAfter(failures: number, policy: ThrottlePolicy): number {
  if (failures < policy.freeFailures) return 0;
  const further = failures - policy.freeFailures;
  const delay =
    policy.growth === 'linear' ? policy.baseDelayMs * (further + 1) : policy.baseDelayMs * 2 ** further;
  return Math.min(delay, policy.maxDelayMs);
}

export function checkThrottle(state: ThrottleState, now: Date, policy: ThrottlePolicy): ThrottleVerdict {
  const s = current(state, now, policy);
  if (s.lockedUntil && s.lockedUntil.getTime() > now.getTime()) {
    return { allowed: false, retryAfterMs: s.lockedUntil.getTime() - now.getTime() };
  }
  const delay = delayAfter(s.failures, policy);
  if (delay > 0 && s.lastFailureAt) {
    const readyAt = s.lastFailureAt.getTime() + delay;
    if (readyAt > now.getTime()) return { allowed: false, retryAfterMs: readyAt - now.getTime() };
  }
  return { allowed: true };
}

export function recordFailure(state: ThrottleState, now: Date, policy: ThrottlePolicy): ThrottleState {
  const s = current(state, now, policy);
  const failures = s.failures + 1;
  return {
    failures,
    lastFailureAt: now,
    lockedUntil: failures >= policy.lockAfter ? new Date(now.getTime() + policy.lockMs) : null,
  };
}

/** The verdict on an attempt counted under several keys: allowed when every key allows it, else the longest wait. */
export function checkThrottles(
  keys: readonly { state: ThrottleState; policy: ThrottlePolicy }[],
  now: Date,
): ThrottleVerdict {
  let retryAfterMs = 0;
  for (const { state, policy } of keys) {
    const verdict = checkThrottle(state, now, policy);
    if (!verdict.allowed) retryAfterMs = Math.max(retryAfterMs, verdict.retryAfterMs);
  }
  return retryAfterMs > 0 ? { allowed: false, retryAfterMs } : { allowed: true };
}
