import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';

/**
 * Makes the transactions that take the same named lock run one after the other, until each commits: for
 * rules no constraint can hold, such as a tree without loops or names unique among siblings.
 */
export async function lockForTransaction(tx: Db, name: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${name}))`);
}
