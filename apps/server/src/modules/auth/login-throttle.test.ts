import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_ADDRESS_POLICY,
  ACCOUNT_POLICY,
  ADDRESS_POLICY,
  checkThrottle,
  checkThrottles,
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

  it('has sane policies: the pair is stricter than the address, the account never locks', () => {
    for (const policy of [ACCOUNT_ADDRESS_POLICY, ADDRESS_POLICY]) {
      expect(policy.freeFailures).toBeGreaterThan(0);
      expect(policy.lockAfter).toBeGreaterThan(policy.freeFailures);
      expect(policy.maxDelayMs).toBeGreaterThanOrEqual(policy.baseDelayMs);
      expect(policy.lockMs).toBeGreaterThan(policy.maxDelayMs);
    }
    expect(ACCOUNT_ADDRESS_POLICY.freeFailures).toBe(3);
    expect(ADDRESS_POLICY.freeFailures).toBeGreaterThan(ACCOUNT_ADDRESS_POLICY.freeFailures);
    expect(ADDRESS_POLICY.lockAfter).toBeGreaterThan(ACCOUNT_ADDRESS_POLICY.lockAfter);
    expect(ACCOUNT_POLICY.lockAfter).toBe(Number.POSITIVE_INFINITY);
    // One address is locked out of an account before it could make the account wait for everybody.
    expect(ACCOUNT_POLICY.freeFailures).toBeGreaterThan(ACCOUNT_ADDRESS_POLICY.lockAfter);
    expect(ACCOUNT_POLICY.windowMs).toBeLessThan(ACCOUNT_ADDRESS_POLICY.lockMs);
  });
});

describe('finding 9: a delay per account that grows slowly and never locks', () => {
  const LINEAR: ThrottlePolicy = { ...POLICY, growth: 'linear', lockAfter: Number.POSITIVE_INFINITY };

  it('grows by the base delay per further failure, up to the cap', () => {
    const failureCounts = [2, 3, 4, 9, 12, 1_000];
    expect(failureCounts.map((n) => delayAfter(n, LINEAR))).toEqual([0, 1_000, 2_000, 7_000, 10_000, 10_000]);
    expect(delayAfter(ACCOUNT_POLICY.freeFailures, ACCOUNT_POLICY)).toBe(1_000);
    expect(delayAfter(ACCOUNT_POLICY.freeFailures + 29, ACCOUNT_POLICY)).toBe(30_000);
    expect(delayAfter(ACCOUNT_POLICY.freeFailures + 500, ACCOUNT_POLICY)).toBe(60_000);
  });

  it('never locks: after any number of failures the wait is at most the cap', () => {
    const { state, last } = failures(5_000, 10, LINEAR);
    expect(state.lockedUntil).toBeNull();
    expect(retryAfter(checkThrottle(state, at(last), LINEAR))).toBe(LINEAR.maxDelayMs);
    expect(checkThrottle(state, at(last + LINEAR.maxDelayMs), LINEAR)).toEqual({ allowed: true });
  });

  /** The failures an attacker gets counted in `hours`, trying again the moment every key allows it. */
  function attack(
    keysOf: (attempt: number) => { key: string; policy: ThrottlePolicy }[],
    hours: number,
    onFailure: (states: Map<string, ThrottleState>, now: number) => void = () => {},
  ): number[] {
    const states = new Map<string, ThrottleState>();
    const times: number[] = [];
    let now = 0;
    for (let attempt = 0; now < hours * 3_600_000; attempt++) {
      const keys = keysOf(attempt);
      const entries = () =>
        keys.map(({ key, policy }) => ({ state: states.get(key) ?? EMPTY_THROTTLE, policy }));
      const verdict = checkThrottles(entries(), at(now));
      if (!verdict.allowed) now += verdict.retryAfterMs;
      expect(checkThrottles(entries(), at(now))).toEqual({ allowed: true });
      for (const { key, policy } of keys) {
        states.set(key, recordFailure(states.get(key) ?? EMPTY_THROTTLE, at(now), policy));
      }
      times.push(now);
      onFailure(states, now);
    }
    return times;
  }

  const keysFrom = (address: string) => [
    { key: `pair:${address}`, policy: ACCOUNT_ADDRESS_POLICY },
    { key: `address:${address}`, policy: ADDRESS_POLICY },
    { key: 'account', policy: ACCOUNT_POLICY },
  ];

  it('keeps guesses from any number of addresses to about 100 an hour on one account (ASVS 2.2.1)', () => {
    const times = attack((attempt) => keysFrom(`10.0.${attempt >> 8}.${attempt & 255}`), 6);
    for (let hour = 0; hour < 5; hour++) {
      const from = hour * 3_600_000;
      const inHour = times.filter((t) => t >= from && t < from + 3_600_000).length;
      expect(inHour, `hour ${hour + 1}`).toBeLessThanOrEqual(100);
    }
    // Later hours settle at one failure a minute.
    expect(times.filter((t) => t >= 5 * 3_600_000 && t < 6 * 3_600_000).length).toBeLessThanOrEqual(61);
  });

  it('is never reached by one address alone: the owner elsewhere never waits', () => {
    const times = attack(
      () => keysFrom('10.0.0.1'),
      6,
      (states, now) => {
        const account = states.get('account')!;
        expect(checkThrottle(account, at(now), ACCOUNT_POLICY), `after the failure at ${now} ms`).toEqual({
          allowed: true,
        });
      },
    );
    // The address itself is held back: 8 failures, then 15 minutes locked, again and again.
    expect(times.length).toBeLessThanOrEqual(6 * 4 * ACCOUNT_ADDRESS_POLICY.lockAfter);
  });

  it('answers a refused attempt with the longest wait of its keys', () => {
    const { state: short } = failures(3, 0, POLICY);
    const { state: long } = failures(4, 0, POLICY);
    expect(checkThrottles([{ state: short, policy: POLICY }], at(0))).toEqual({
      allowed: false,
      retryAfterMs: 1_000,
    });
    expect(
      checkThrottles(
        [
          { state: short, policy: POLICY },
          { state: long, policy: POLICY },
          { state: EMPTY_THROTTLE, policy: POLICY },
        ],
        at(0),
      ),
    ).toEqual({ allowed: false, retryAfterMs: 2_000 });
    expect(checkThrottles([{ state: EMPTY_THROTTLE, policy: POLICY }], at(0))).toEqual({ allowed: true });
  });
});
