import { eq, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { verificationCode } from './registration.schema.ts';
import {
  CODE_TTL_MS,
  type CodeVerdict,
  hashCode,
  judgeCode,
  normaliseEmail,
  RESEND_INTERVAL_MS,
} from './verification-code.ts';

/** The database or a transaction on it. */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Stores a new code for an address, replacing the one before, unless the one before was sent less than
 * the resend interval ago: one statement, so two concurrent sends cannot both pass.
 */
export async function storeCode(
  db: DbOrTx,
  email: string,
  code: string,
  now: Date,
): Promise<{ stored: true } | { stored: false; sentAt: Date }> {
  const key = normaliseEmail(email);
  const values = {
    codeHash: hashCode(key, code),
    sentAt: now,
    expiresAt: new Date(now.getTime() + CODE_TTL_MS),
    attempts: 0,
    usedAt: null,
  };
  const stored = await db
    .insert(verificationCode)
    .values({ email: key, ...values })
    .onConflictDoUpdate({
      target: verificationCode.email,
      set: values,
      setWhere: lte(verificationCode.sentAt, new Date(now.getTime() - RESEND_INTERVAL_MS)),
    })
    .returning({ email: verificationCode.email });
  if (stored.length > 0) return { stored: true };
  const [previous] = await db
    .select({ sentAt: verificationCode.sentAt })
    .from(verificationCode)
    .where(eq(verificationCode.email, key));
  return { stored: false, sentAt: previous?.sentAt ?? now };
}

/**
 * Judges a typed code under a row lock: a wrong one counts as an attempt, a valid one is used up when
 * `consume` (inside the caller's transaction, so a failed registration gives it back).
 */
export async function checkCode(
  db: DbOrTx,
  email: string,
  typed: string,
  now: Date,
  consume: boolean,
): Promise<CodeVerdict> {
  const key = normaliseEmail(email);
  const judge = async (tx: DbOrTx): Promise<CodeVerdict> => {
    const [row] = await tx
      .select()
      .from(verificationCode)
      .where(eq(verificationCode.email, key))
      .for('update');
    const verdict = judgeCode(row ?? null, key, typed, now);
    if (verdict === 'wrong') {
      await tx
        .update(verificationCode)
        .set({ attempts: (row?.attempts ?? 0) + 1 })
        .where(eq(verificationCode.email, key));
    } else if (verdict === 'valid' && consume) {
      await tx.update(verificationCode).set({ usedAt: now }).where(eq(verificationCode.email, key));
    }
    return verdict;
  };
  return consume ? judge(db) : db.transaction(judge);
}
