import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { loginThrottle } from './auth.schema.ts';
import {
  checkThrottle,
  checkThrottles,
  EMPTY_THROTTLE,
  recordFailure,
  type ThrottlePolicy,
  type ThrottleState,
  type ThrottleVerdict,
} from './login-throttle.ts';

async function load(db: Db, key: string): Promise<ThrottleState> {
  const [row] = await db.select().from(loginThrottle).where(eq(loginThrottle.key, key));
  return row ?? EMPTY_THROTTLE;
}

export async function checkLoginThrottle(
  db: Db,
  key: string,
  now: Date,
  policy: ThrottlePolicy,
): Promise<ThrottleVerdict> {
  return checkThrottle(await load(db, key), now, policy);
}

/** Counts a failure; the row is locked so concurrent failures are all counted. */
export async function recordLoginFailure(
  db: Db,
  key: string,
  now: Date,
  policy: ThrottlePolicy,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(loginThrottle).where(eq(loginThrottle.key, key)).for('update');
    const next = recordFailure(row ?? EMPTY_THROTTLE, now, policy);
    await tx
      .insert(loginThrottle)
      .values({ key, ...next })
      .onConflictDoUpdate({ target: loginThrottle.key, set: next });
  });
}

export interface ThrottleKey {
  key: string;
  policy: ThrottlePolicy;
}

export type ThrottledOutcome<T> = { locked: true; retryAfterMs: number } | { locked: false; value: T };

/**
 * Runs an attempt (a sign-in) under the row locks of its throttle keys, so that the check, the attempt
 * and the counting of its failure are one step: parallel attempts sharing a key (an account, an address)
 * wait for each other and each sees the failures before it. A refused attempt waits for the longest wait
 * of its keys and counts as no failure. The attempt reads through the transaction
 * it is given. Keys are locked in a fixed order, so two attempts never wait for each other in a cycle.
 */
export async function runThrottled<T>(
  db: Db,
  keys: readonly ThrottleKey[],
  now: Date,
  attempt: (tx: Db) => Promise<{ failed: boolean; value: T }>,
  clearOnSuccess: readonly string[],
): Promise<ThrottledOutcome<T>> {
  return db.transaction(async (tx) => {
    const ordered = [...keys].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    await tx
      .insert(loginThrottle)
      .values(ordered.map(({ key }) => ({ key })))
      .onConflictDoNothing();
    const states = new Map<string, ThrottleState>();
    for (const { key } of ordered) {
      const [row] = await tx.select().from(loginThrottle).where(eq(loginThrottle.key, key)).for('update');
      states.set(key, row ?? EMPTY_THROTTLE);
    }
    const verdict = checkThrottles(
      keys.map(({ key, policy }) => ({ state: states.get(key) ?? EMPTY_THROTTLE, policy })),
      now,
    );
    if (!verdict.allowed) return { locked: true, retryAfterMs: verdict.retryAfterMs };
    const { failed, value } = await attempt(tx as unknown as Db);
    if (failed) {
      for (const { key, policy } of ordered) {
        const next = recordFailure(states.get(key) ?? EMPTY_THROTTLE, now, policy);
        await tx.update(loginThrottle).set(next).where(eq(loginThrottle.key, key));
      }
    } else {
      for (const key of clearOnSuccess) await tx.delete(loginThrottle).where(eq(loginThrottle.key, key));
    }
    return { locked: false, value };
  });
}
