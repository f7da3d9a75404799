import { type SQL, sql } from 'drizzle-orm';
import type { ModuleLogger } from '../lib/module-logger.ts';
import { startPeriodicJobs } from '../lib/periodic-jobs.ts';
import type { Database, Db } from './client.ts';
import { rowsOf } from './rows.ts';

/**
 * Upkeep of the embedded database. PostgreSQL's autovacuum runs in a process of its own, which the embedded
 * engine (PostgreSQL in single-user mode) does not have: without this, the rows that the telemetry retention
 * deletes or an update replaces are never cleared, so the files grow for good whatever the retention, the
 * planner's statistics age, and after about two billion transactions the engine stops taking writes to avoid
 * transaction id wraparound. A pass here decides per table as autovacuum would, with its default settings,
 * and runs `VACUUM` / `ANALYZE` on the tables that need it, one at a time.
 */

/** What the statistics tell of one table. */
export interface TableActivity {
  schema: string;
  table: string;
  /** The planner's estimate of its rows (`pg_class.reltuples`; 0 when never counted). */
  tuples: number;
  /** Rows deleted or replaced and not yet cleared (`n_dead_tup`). */
  dead: number;
  insertedSinceVacuum: number;
  modifiedSinceAnalyze: number;
  /** Transactions since its oldest unfrozen row (`age(relfrozenxid)`). */
  xidAge: number;
  /** Multixacts since its oldest unfrozen one (`mxid_age(relminmxid)`). */
  multixactAge: number;
}

export interface MaintenanceLimits {
  vacuumThreshold: number;
  vacuumScaleFactor: number;
  vacuumInsertThreshold: number;
  vacuumInsertScaleFactor: number;
  /** Rows inserted since the last vacuum past which a table is vacuumed whatever its size. */
  vacuumInsertMaxThreshold: number;
  analyzeThreshold: number;
  analyzeScaleFactor: number;
  /** From this age a table is vacuumed whatever else, and the vacuum freezes every page it can. */
  freezeAge: number;
  multixactFreezeAge: number;
}

/**
 * PostgreSQL's autovacuum defaults; the freeze ages are those at which a plain `VACUUM` becomes aggressive
 * (`vacuum_freeze_table_age`, `vacuum_multixact_freeze_table_age`), below autovacuum's forced limits.
 * One limit is the embedded engine's own: a table that only grows (device history) is vacuumed after at
 * most 100 000 new rows rather than after a fifth of the table. The vacuum of new rows costs about what
 * they number (some 12 ms per 100 000 history rows on the machine of docs/performance.md), and on the
 * embedded engine every query waits for it: a fifth of a table of tens of millions would hold ingest for
 * seconds.
 */
export const AUTOVACUUM_DEFAULTS: MaintenanceLimits = {
  vacuumThreshold: 50,
  vacuumScaleFactor: 0.2,
  vacuumInsertThreshold: 1000,
  vacuumInsertScaleFactor: 0.2,
  vacuumInsertMaxThreshold: 100_000,
  analyzeThreshold: 50,
  analyzeScaleFactor: 0.1,
  freezeAge: 150_000_000,
  multixactFreezeAge: 150_000_000,
};

export interface MaintenanceWork {
  vacuum: boolean;
  analyze: boolean;
}

/** Whether a table wants vacuuming and analysing now (autovacuum's rules). Catalogs are not analysed. */
export function maintenanceOf(
  activity: TableActivity,
  limits: MaintenanceLimits = AUTOVACUUM_DEFAULTS,
): MaintenanceWork {
  const tuples = Math.max(activity.tuples, 0);
  const vacuum =
    activity.xidAge >= limits.freezeAge ||
    activity.multixactAge >= limits.multixactFreezeAge ||
    activity.dead > limits.vacuumThreshold + limits.vacuumScaleFactor * tuples ||
    activity.insertedSinceVacuum >
      Math.min(
        limits.vacuumInsertThreshold + limits.vacuumInsertScaleFactor * tuples,
        limits.vacuumInsertMaxThreshold,
      );
  const analyze =
    activity.schema !== 'pg_catalog' &&
    activity.modifiedSinceAnalyze > limits.analyzeThreshold + limits.analyzeScaleFactor * tuples;
  return { vacuum, analyze };
}

/** The activity of every ordinary table and materialised view (TOAST tables go with their own table). */
export async function readTableActivity(db: Db): Promise<TableActivity[]> {
  const result = await db.execute(sql`
    select s.schemaname as schema, s.relname as table, greatest(c.reltuples, 0)::float8 as tuples,
           s.n_dead_tup::float8 as dead, s.n_ins_since_vacuum::float8 as inserted,
           s.n_mod_since_analyze::float8 as modified, age(c.relfrozenxid)::float8 as xid_age,
           mxid_age(c.relminmxid)::float8 as multixact_age
      from pg_stat_all_tables s join pg_class c on c.oid = s.relid
     where c.relkind in ('r', 'm') and c.relpersistence <> 't'`);
  return rowsOf<{
    schema: string;
    table: string;
    tuples: number;
    dead: number;
    inserted: number;
    modified: number;
    xid_age: number;
    multixact_age: number;
  }>(result).map((r) => ({
    schema: r.schema,
    table: r.table,
    tuples: Number(r.tuples),
    dead: Number(r.dead),
    insertedSinceVacuum: Number(r.inserted),
    modifiedSinceAnalyze: Number(r.modified),
    xidAge: Number(r.xid_age),
    multixactAge: Number(r.multixact_age),
  }));
}

export interface MaintainedTable extends MaintenanceWork {
  table: string;
  /**
   * How long the vacuum and the analysis each held the database, when they ran (the pass between them is not
   * counted: other work runs there).
   */
  vacuumMs?: number;
  analyzeMs?: number;
}

/**
 * One pass: the tables that need it, the oldest unfrozen first, then the most dead rows. On the embedded
 * engine each statement holds the database while it runs (reports wait in the broker, nothing is lost), so
 * a table's vacuum and its analysis are two statements: the work that queued behind the first runs before
 * the second.
 */
export async function maintainDatabase(
  db: Db,
  limits: MaintenanceLimits = AUTOVACUUM_DEFAULTS,
): Promise<MaintainedTable[]> {
  const due = (await readTableActivity(db))
    .map((activity) => ({ activity, work: maintenanceOf(activity, limits) }))
    .filter(({ work }) => work.vacuum || work.analyze)
    .sort(
      (a, b) =>
        Math.max(b.activity.xidAge, b.activity.multixactAge) -
          Math.max(a.activity.xidAge, a.activity.multixactAge) || b.activity.dead - a.activity.dead,
    );
  const done: MaintainedTable[] = [];
  for (const { activity, work } of due) {
    const name = sql`${sql.identifier(activity.schema)}.${sql.identifier(activity.table)}`;
    const maintained: MaintainedTable = { table: `${activity.schema}.${activity.table}`, ...work };
    if (work.vacuum) maintained.vacuumMs = await timed(db, sql`vacuum ${name}`);
    if (work.analyze) maintained.analyzeMs = await timed(db, sql`analyze ${name}`);
    done.push(maintained);
  }
  return done;
}

/** Runs a statement; answers the milliseconds it took. */
async function timed(db: Db, statement: SQL): Promise<number> {
  const started = performance.now();
  await db.execute(statement);
  return Math.round(performance.now() - started);
}

/**
 * How often the embedded database is looked at: every 15 seconds, a quarter of autovacuum's nap. Statistics
 * then follow a growing fleet within seconds, and so do the plans of the statements ingest keeps prepared
 * (an ANALYZE makes them planned again): a plan made while a table was nearly empty reads all of it once it
 * is not. And the work comes in small steps: at 10 000 reports a second a minute brings 600 000 history rows,
 * whose vacuum would hold every query for about 0.1 s at once. A look that finds nothing to do reads the
 * table statistics only (about 5 ms).
 */
export const MAINTENANCE_INTERVAL_MS = 15_000;

/**
 * Starts the upkeep of the embedded database; PostgreSQL keeps its own (autovacuum), so there it starts
 * nothing. Returns the stop.
 */
export function startDatabaseMaintenance(
  database: Pick<Database, 'db' | 'kind'>,
  logger: ModuleLogger,
  intervalMs = MAINTENANCE_INTERVAL_MS,
): () => Promise<void> {
  if (database.kind !== 'pglite') return async () => {};
  return startPeriodicJobs(
    [
      {
        name: 'database-maintenance',
        intervalMs,
        run: async () => {
          const tables = await maintainDatabase(database.db);
          if (tables.length > 0) logger.info({ tables }, 'embedded database maintained');
        },
      },
    ],
    logger,
    'database maintenance failed',
  );
}
