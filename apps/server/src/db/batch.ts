import type { SQL } from 'drizzle-orm';
import { TransactionRollbackError } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';
import { PgliteThread } from './pglite-thread.ts';
import { rowsOf } from './rows.ts';

export interface BatchStep {
  query: SQL;
  /** A statement run often: the embedded database plans it once under this name (see BatchStatement). */
  name?: string;
  /**
   * The whole batch is undone when this statement's command tag reports another number of rows (inserted,
   * updated, deleted or selected).
   */
  expectRowCount?: number;
}

/** The rows each statement answered, or `done: false` when a statement's row count undid the batch. */
export type BatchOutcome = { done: true; rows: unknown[][] } | { done: false };

const dialect = new PgDialect();

/**
 * Runs statements as one transaction. On the embedded database they go to its thread in one message, so
 * the transaction is not held open while the main thread is busy between statements (other statements wait
 * behind an open transaction); on PostgreSQL it is an ordinary transaction on one connection.
 */
export async function transactionBatch(db: Db, steps: readonly BatchStep[]): Promise<BatchOutcome> {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (client instanceof PgliteThread) {
    const result = await client.batch(
      steps.map((step) => {
        const { sql, params } = dialect.sqlToQuery(step.query);
        return {
          sql,
          params,
          ...(step.name ? { name: step.name } : {}),
          ...(step.expectRowCount !== undefined ? { expectRowCount: step.expectRowCount } : {}),
        };
      }),
    );
    return result.done ? { done: true, rows: result.results.map((r) => r.rows) } : { done: false };
  }
  try {
    const rows = await db.transaction(async (tx) => {
      const all: unknown[][] = [];
      for (const step of steps) {
        const result = await tx.execute(step.query);
        const stepRows = rowsOf<unknown>(result);
        const count = (result as { rowCount?: number | null }).rowCount ?? stepRows.length;
        if (step.expectRowCount !== undefined && count !== step.expectRowCount) tx.rollback();
        all.push(stepRows);
      }
      return all;
    });
    return { done: true, rows };
  } catch (error) {
    if (error instanceof TransactionRollbackError) return { done: false };
    throw error;
  }
}
