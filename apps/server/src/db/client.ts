import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { PgliteThread } from './pglite-thread.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The one database type the code uses, whichever engine is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** The schema's migrations (drizzle-kit's folder). */
export const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');
/** Serialises migrations when several server instances start against one PostgreSQL. */
const MIGRATION_LOCK = 74_201_001;

/**
 * PGlite's default start parameters with `-F` (fsync off) removed: committed transactions reach the
 * files under DATA_DIR before the commit returns (see README, "Durability of the embedded database").
 */
export const PGLITE_START_PARAMS = [
  '--single',
  '-O',
  '-j',
  '-c',
  'search_path=public',
  '-c',
  'exit_on_error=false',
  '-c',
  'log_checkpoints=false',
  '-c',
  'max_worker_processes=0',
  '-c',
  'max_parallel_workers=0',
  '-c',
  'max_parallel_workers_per_gather=0',
  '-c',
  'io_method=sync',
  '-c',
  'max_parallel_maintenance_workers=0',
  // The embedded database's pages are local and mostly in memory: a lookup by key costs about what a page
  // read in order does (PostgreSQL's default of 4 assumes spinning disks). With 4 the planner read a whole
  // table of thousands of devices to change the hundred a batch reports, ever more per report as a fleet grows.
  '-c',
  'random_page_cost=1.1',
];

/**
 * The embedded database, in a thread of its own (pglite-thread.ts): in `dataDir`, or in memory when null.
 */
export async function openPglite(dataDir: string | null): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const thread = await PgliteThread.start(dataDir, PGLITE_START_PARAMS);
  // Drizzle's PGlite driver uses query, exec and transaction only, which the thread offers.
  const client = thread as unknown as PGlite;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: async () => {
      await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: MIGRATIONS });
      // The embedded engine has no autovacuum: without statistics the planner misjudges the ledger's
      // filters and sorts whole tables; gather them at every start.
      await thread.exec('analyze');
    },
    ping: async () => {
      try {
        await thread.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    close: () => thread.close(),
  };
}

/** The channel the schema's triggers announce session changes on (drizzle/0009_session_changes.sql). */
export const SESSION_CHANGE_CHANNEL = 'uiot_session_change';

/**
 * Every pooled connection listens to the triggers' channel before its first use, and the pool re-emits what
 * it hears as `notification`: PostgreSQL sends a session the notices of its own commit before it answers
 * the commit, so this process hears its own writes before they return, whichever connection made them.
 */
function listeningConnections(pool: () => pg.Pool): pg.PoolConfig['verify'] {
  return (client, done) => {
    client.on('notification', (note) => pool().emit('notification', note));
    client.query(`LISTEN ${SESSION_CHANGE_CHANNEL}`).then(() => done(), done);
  };
}

export async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  const pool: pg.Pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    verify: listeningConnections(() => pool),
  });
  // Fail start-up at once with a clear error when the server cannot be reached.
  const probe = await pool.connect();
  probe.release();
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    migrate: async () => {
      const conn = await pool.connect();
      try {
        await conn.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migrateNodePg(drizzleNodePg(conn, { schema }), { migrationsFolder: MIGRATIONS });
      } finally {
        await conn.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
        conn.release();
      }
    },
    ping: async () => {
      try {
        await db.execute(sql`select 1`);
        return true;
      } catch {
        return false;
      }
    },
    close: () => pool.end(),
  };
}
