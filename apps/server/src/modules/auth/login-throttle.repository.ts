import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { loginThrottle } from './auth.schema.ts';
import {
  checkThrottle,
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

export async function clearLoginThrottle(db: Db, key: string): Promise<void> {
  await db.delete(loginThrottle).where(eq(loginThrottle.key, key));
}
