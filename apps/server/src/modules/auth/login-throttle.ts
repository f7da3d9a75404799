/**
 * Sign-in throttling, a pure rule (no I/O): after a few failures each further attempt must wait an
 * exponentially growing delay, and after many failures the key is locked for a while. The same rule runs
 * per account name and per address, with its own policy for each.
 */
export interface ThrottlePolicy {
  /** Failures allowed without any wait. */
  freeFailures: number;
  /** Wait after the last free failure; doubles with each further failure. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Failures that lock the key. */
  lockAfter: number;
  lockMs: number;
  /** A failure older than this no longer counts. */
  windowMs: number;
}

export const ACCOUNT_POLICY: ThrottlePolicy = {
  freeFailures: 3,
  baseDelayMs: 2_000,
  maxDelayMs: 60_000,
  lockAfter: 8,
  lockMs: 15 * 60_000,
  windowMs: 15 * 60_000,
};

export const ADDRESS_POLICY: ThrottlePolicy = {
  freeFailures: 10,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  lockAfter: 40,
  lockMs: 15 * 60_000,
  windowMs: 15 * 60_000,
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
  const exponent = failures - policy.freeFailures;
  return Math.min(policy.baseDelayMs * 2 ** exponent, policy.maxDelayMs);
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
