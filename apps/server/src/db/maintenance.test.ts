import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, type TestDatabase } from '../../test/support/databases.ts';
import { SILENT_LOGGER } from '../lib/module-logger.ts';
import {
  AUTOVACUUM_DEFAULTS,
  maintainDatabase,
  maintenanceOf,
  readTableActivity,
  startDatabaseMaintenance,
  type TableActivity,
} from './maintenance.ts';
import { rowsOf } from './rows.ts';

const quiet: TableActivity = {
  schema: 'public',
  table: 'device_history',
  tuples: 10_000,
  dead: 0,
  insertedSinceVacuum: 0,
  modifiedSinceAnalyze: 0,
  xidAge: 1_000,
  multixactAge: 0,
};

describe('maintenanceOf', () => {
  it('leaves a table alone while nothing passes its thresholds', () => {
    expect(maintenanceOf(quiet)).toEqual({ vacuum: false, analyze: false });
  });

  it('vacuums once more rows are dead than 50 and a fifth of the table', () => {
    expect(maintenanceOf({ ...quiet, dead: 2_050 }).vacuum).toBe(false);
    expect(maintenanceOf({ ...quiet, dead: 2_051 }).vacuum).toBe(true);
    // A table never counted is taken as empty.
    expect(maintenanceOf({ ...quiet, tuples: -1, dead: 51 }).vacuum).toBe(true);
  });

  it('vacuums once more rows came in since the last vacuum than 1 000 and a fifth of the table', () => {
    expect(maintenanceOf({ ...quiet, insertedSinceVacuum: 3_000 }).vacuum).toBe(false);
    expect(maintenanceOf({ ...quiet, insertedSinceVacuum: 3_001 }).vacuum).toBe(true);
  });

  it('vacuums a large table once 100 000 rows came in since the last vacuum, however large it is', () => {
    const large = { ...quiet, tuples: 5_000_000 };
    expect(maintenanceOf({ ...large, insertedSinceVacuum: 100_000 }).vacuum).toBe(false);
    expect(maintenanceOf({ ...large, insertedSinceVacuum: 100_001 }).vacuum).toBe(true);
    // Dead rows keep autovacuum's rule: each vacuum of them reads the table's indexes whole.
    expect(maintenanceOf({ ...large, dead: 100_001 }).vacuum).toBe(false);
  });

  it('vacuums a table whose oldest unfrozen transaction or multixact has reached the freeze age', () => {
    const limit = AUTOVACUUM_DEFAULTS.freezeAge;
    expect(maintenanceOf({ ...quiet, xidAge: limit - 1 }).vacuum).toBe(false);
    expect(maintenanceOf({ ...quiet, xidAge: limit }).vacuum).toBe(true);
    const multixactLimit = AUTOVACUUM_DEFAULTS.multixactFreezeAge;
    expect(maintenanceOf({ ...quiet, multixactAge: multixactLimit - 1 }).vacuum).toBe(false);
    expect(maintenanceOf({ ...quiet, multixactAge: multixactLimit }).vacuum).toBe(true);
  });

  it('analyses once more rows changed than 50 and a tenth of the table, catalogs excepted', () => {
    expect(maintenanceOf({ ...quiet, modifiedSinceAnalyze: 1_050 })).toEqual({
      vacuum: false,
      analyze: false,
    });
    expect(maintenanceOf({ ...quiet, modifiedSinceAnalyze: 1_051 })).toEqual({
      vacuum: false,
      analyze: true,
    });
    expect(
      maintenanceOf({ ...quiet, schema: 'pg_catalog', table: 'pg_class', modifiedSinceAnalyze: 1_051 })
        .analyze,
    ).toBe(false);
  });
});

describe.each(databases)('maintainDatabase ($kind)', ({ kind, open }) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await open();
    // The shared PostgreSQL's autovacuum is kept off this table: the pass here is what is tested.
    await database.db.execute(
      sql`create table maintenance_probe (id int primary key, body text not null) with (autovacuum_enabled = false)`,
    );
  });
  afterAll(() => database?.close());

  const size = async () =>
    Number(
      rowsOf<{ bytes: string | number }>(
        await database.db.execute(sql`select pg_relation_size('maintenance_probe') as bytes`),
      )[0]!.bytes,
    );
  const probe = async () =>
    (await readTableActivity(database.db)).find((t) => t.table === 'maintenance_probe');
  /** Runs statements in one transaction whose statistics are sent at once when it ends. */
  const changed = (statement: ReturnType<typeof sql>) =>
    database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_stat_force_next_flush()`);
      await tx.execute(statement);
    });

  it('clears deleted rows so that new rows take their room instead of growing the table', async () => {
    await changed(
      sql`insert into maintenance_probe select g, repeat('x', 200) from generate_series(1, 4000) g`,
    );
    await changed(sql`delete from maintenance_probe where id % 2 = 0`);
    await expect.poll(async () => (await probe())?.dead, { timeout: 5_000 }).toBe(2_000);
    const before = await size();

    const done = await maintainDatabase(database.db);
    expect(done).toContainEqual(
      expect.objectContaining({
        table: 'public.maintenance_probe',
        vacuum: true,
        analyze: true,
        vacuumMs: expect.any(Number),
        analyzeMs: expect.any(Number),
      }),
    );
    expect((await probe())?.dead).toBe(0);
    expect((await probe())?.modifiedSinceAnalyze).toBe(0);
    // Nothing is left to do right after a pass.
    const again = await maintainDatabase(database.db);
    expect(again.map((t) => t.table)).not.toContain('public.maintenance_probe');

    await changed(
      sql`insert into maintenance_probe select g * 2, repeat('y', 200) from generate_series(1, 2000) g`,
    );
    // Without the vacuum the 2 000 rows would go after the last page (about half as much again).
    expect(await size()).toBeLessThanOrEqual(before);
  });

  it('analyses device history from a sample of 3 000 rows (statistics target 10) in every column', async () => {
    const targets = rowsOf<{ name: string; target: number }>(
      await database.db.execute(sql`
        select attname as name, attstattarget::int as target from pg_attribute
        where attrelid = 'device_history'::regclass and attnum > 0 and not attisdropped`),
    );
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.filter((t) => t.target !== 10)).toEqual([]);
  });

  it(`${kind === 'pglite' ? 'runs' : 'leaves to autovacuum'} its passes on an interval`, async () => {
    await changed(sql`delete from maintenance_probe where id > 3000`);
    await expect.poll(async () => (await probe())?.dead, { timeout: 5_000 }).toBeGreaterThan(100);
    const stop = startDatabaseMaintenance(database, SILENT_LOGGER, 20);
    try {
      if (kind === 'pglite') {
        await expect.poll(async () => (await probe())?.dead, { timeout: 5_000 }).toBe(0);
      } else {
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect((await probe())?.dead).toBeGreaterThan(100);
      }
    } finally {
      await stop();
    }
  });
});
