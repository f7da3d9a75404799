import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_POLICY,
  ADDRESS_POLICY,
  checkThrottle,
  delayAfter,
  EMPTY_THROTTLE,
  recordFailure,
  type ThrottlePolicy,
  type ThrottleState,
  type ThrottleVerdict,
} from './login-throttle.ts';

const POLICY: ThrottlePolicy = {
  freeFailures: 3,
  baseDelayMs: 1_000,
  maxDelayMs: 10_000,
  lockAfter: 8,
  lockMs: 60_000,
  windowMs: 120_000,
};

const T0 = new Date('2026-01-01T00:00:00Z').getTime();
const at = (ms: number) => new Date(T0 + ms);

/** Records `count` failures, each `gapMs` after the previous one, starting at T0. */
function failures(count: number, gapMs = 0, policy = POLICY): { state: ThrottleState; last: number } {
  let state = EMPTY_THROTTLE;
  let last = 0;
  for (let i = 0; i < count; i++) {
    last = i * gapMs;
    state = recordFailure(state, at(last), policy);
  }
  return { state, last };
}

function retryAfter(verdict: ThrottleVerdict): number {
  if (verdict.allowed) throw new Error('expected a refusal');
  return verdict.retryAfterMs;
}

describe('login throttle', () => {
  it('allows the first attempts without waiting, up to the free failures', () => {
    expect(checkThrottle(EMPTY_THROTTLE, at(0), POLICY)).toEqual({ allowed: true });
    for (let n = 1; n < POLICY.freeFailures; n++) {
      const { state, last } = failures(n);
      expect(state.failures).toBe(n);
      expect(checkThrottle(state, at(last), POLICY), `after ${n} failures`).toEqual({ allowed: true });
    }
  });

  it('makes the attempt after the free failures wait the base delay', () => {
    const { state, last } = failures(POLICY.freeFailures);
    expect(retryAfter(checkThrottle(state, at(last), POLICY))).toBe(POLICY.baseDelayMs);
    expect(retryAfter(checkThrottle(state, at(last + 400), POLICY))).toBe(POLICY.baseDelayMs - 400);
    expect(checkThrottle(state, at(last + POLICY.baseDelayMs), POLICY)).toEqual({ allowed: true });
  });

  it('doubles the delay with each further failure, up to the cap', () => {
    expect(delayAfter(0, POLICY)).toBe(0);
    expect(delayAfter(POLICY.freeFailures - 1, POLICY)).toBe(0);
    expect(delayAfter(3, POLICY)).toBe(1_000);
    expect(delayAfter(4, POLICY)).toBe(2_000);
    expect(delayAfter(5, POLICY)).toBe(4_000);
    expect(delayAfter(6, POLICY)).toBe(8_000);
    expect(delayAfter(7, POLICY)).toBe(10_000);
    expect(delayAfter(30, POLICY)).toBe(10_000);
    expect(delayAfter(2_000, POLICY)).toBe(10_000);

    // The same through the state: the wait is measured from the last failure.
    const { state, last } = failures(6, 20_000);
    expect(state.lockedUntil).toBeNull();
    expect(retryAfter(checkThrottle(state, at(last + 1), POLICY))).toBe(8_000 - 1);
  });

  it('locks the key after lockAfter failures, for lockMs', () => {
    const { state: before } = failures(POLICY.lockAfter - 1, 15_000);
    expect(before.lockedUntil).toBeNull();
    const { state, last } = failures(POLICY.lockAfter, 15_000);
    expect(state.lockedUntil).toEqual(at(last + POLICY.lockMs));
    // Refused for the whole lock, even long after the capped delay has passed.
    expect(retryAfter(checkThrottle(state, at(last), POLICY))).toBe(POLICY.lockMs);
    expect(retryAfter(checkThrottle(state, at(last + POLICY.maxDelayMs * 3), POLICY))).toBe(
      POLICY.lockMs - POLICY.maxDelayMs * 3,
    );
    expect(retryAfter(checkThrottle(state, at(last + POLICY.lockMs - 1), POLICY))).toBe(1);
    expect(checkThrottle(state, at(last + POLICY.lockMs), POLICY)).toEqual({ allowed: true });
  });

  it('keeps the lock when failures are recorded during it', () => {
    const { state, last } = failures(POLICY.lockAfter, 15_000);
    const during = recordFailure(state, at(last + 1_000), POLICY);
    expect(during.failures).toBe(POLICY.lockAfter + 1);
    expect(during.lockedUntil!.getTime()).toBeGreaterThanOrEqual(state.lockedUntil!.getTime());
    expect(checkThrottle(during, at(last + 2_000), POLICY).allowed).toBe(false);
  });

  it('forgets failures older than the window', () => {
    const { state, last } = failures(POLICY.freeFailures + 2);
    expect(checkThrottle(state, at(last + 1), POLICY).allowed).toBe(false);
    expect(checkThrottle(state, at(last + POLICY.windowMs + 1), POLICY)).toEqual({ allowed: true });
    const next = recordFailure(state, at(last + POLICY.windowMs + 1), POLICY);
    expect(next).toEqual({ failures: 1, lastFailureAt: at(last + POLICY.windowMs + 1), lockedUntil: null });
  });

  it('counts failures inside the window', () => {
    const { state, last } = failures(2, POLICY.windowMs / 2);
    const next = recordFailure(state, at(last + POLICY.windowMs - 1), POLICY);
    expect(next.failures).toBe(3);
  });

  it('starts from zero once a lock has expired', () => {
    const { state, last } = failures(POLICY.lockAfter, 15_000);
    const afterLock = at(last + POLICY.lockMs);
    expect(checkThrottle(state, afterLock, POLICY)).toEqual({ allowed: true });
    const next = recordFailure(state, afterLock, POLICY);
    expect(next).toEqual({ failures: 1, lastFailureAt: afterLock, lockedUntil: null });
    expect(checkThrottle(next, afterLock, POLICY)).toEqual({ allowed: true });
  });

  it('has stricter account than address limits, and sane policies', () => {
    for (const policy of [ACCOUNT_POLICY, ADDRESS_POLICY]) {
      expect(policy.freeFailures).toBeGreaterThan(0);
      expect(policy.lockAfter).toBeGreaterThan(policy.freeFailures);
      expect(policy.maxDelayMs).toBeGreaterThanOrEqual(policy.baseDelayMs);
      expect(policy.lockMs).toBeGreaterThan(policy.maxDelayMs);
    }
    expect(ACCOUNT_POLICY.freeFailures).toBe(3);
    expect(ADDRESS_POLICY.freeFailures).toBeGreaterThan(ACCOUNT_POLICY.freeFailures);
    expect(ADDRESS_POLICY.lockAfter).toBeGreaterThan(ACCOUNT_POLICY.lockAfter);
  });
});
