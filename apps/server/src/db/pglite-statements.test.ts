import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releasable } from '../lib/test-support.ts';
import { PGLITE_START_PARAMS } from './client.ts';
import { LONGEST_KEPT, StatementCache } from './pglite-statements.mjs';

/** The names of the statements the engine holds prepared through the protocol. */
async function preparedNames(db: PGlite): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    "select name from pg_prepared_statements where not from_sql and name like '#%' order by name",
  );
  return rows.map((row) => row.name);
}

/** The texts among `texts` that the engine holds prepared through the protocol. */
async function preparedTexts(db: PGlite, texts: readonly string[]): Promise<string[]> {
  const { rows } = await db.query<{ statement: string }>(
    'select statement from pg_prepared_statements where not from_sql and statement = any($1) order by statement',
    [texts],
  );
  return rows.map((row) => row.statement);
}

describe('the statements the embedded database keeps prepared', () => {
  let db: PGlite;

  beforeAll(async () => {
    db = await PGlite.create({ startParams: PGLITE_START_PARAMS });
    await db.exec(`create table note (id int primary key, body text not null, at timestamptz, tags text[],
      data jsonb, flag boolean)`);
  });
  afterAll(() => db.close());

  it('takes the statements on rows and leaves the others to PGlite', () => {
    for (const sql of [
      'select 1',
      ' SELECT 1',
      '\nwith a as (select 1) select * from a',
      'insert into x values (1)',
    ]) {
      expect(StatementCache.accepts(sql)).toBe(true);
    }
    for (const sql of ['update x set a = 1', 'delete from x', 'values (1)'])
      expect(StatementCache.accepts(sql)).toBe(true);
    for (const sql of [
      'create table y (a int)',
      'set search_path = public',
      'begin',
      'selection',
      'analyze',
    ]) {
      expect(StatementCache.accepts(sql)).toBe(false);
    }
    expect(StatementCache.accepts(`select 1${' '.repeat(LONGEST_KEPT)}`)).toBe(false);
  });

  it("answers as PGlite's query does: parameters of every kind, object and array rows, pass-through parsers", async () => {
    const cache = new StatementCache(db);
    const before = (await preparedNames(db)).length;
    const insert =
      'insert into note (id, body, at, tags, data, flag) values ($1, $2, $3, $4, $5, $6) returning *';
    const at = new Date('2026-01-02T03:04:05.678Z');
    const params = [1, "it's", at, ['a', 'b "c"'], { n: 1, list: [true] }, true];
    const stored = await cache.query(insert, params, {}, false);
    expect(stored.rows).toEqual([
      { id: 1, body: "it's", at, tags: ['a', 'b "c"'], data: { n: 1, list: [true] }, flag: true },
    ]);
    await cache.query(insert, [2, 'two', null, null, null, undefined], {}, false);
    const select = 'select id, body, at, tags, data, flag from note where id = any($1) order by id';
    for (const options of [
      {},
      { rowMode: 'array' as const },
      { parsers: { 1184: (value: string) => value } },
    ]) {
      const mine = await cache.query(select, [[1, 2]], options, false);
      const pglite = await db.query(select, [[1, 2]], options);
      expect(mine.rows).toEqual(pglite.rows);
      expect(mine.fields).toEqual(pglite.fields);
    }
    const updated = await cache.query('update note set flag = $1 where id > $2', [false, 0], {}, false);
    expect(updated.affectedRows).toBe(2);
    // Prepared once each: the insert, the select and the update.
    expect(await preparedNames(db)).toHaveLength(before + 3);
    await db.query('delete from note');
  });

  it("fails as PGlite's query does, and runs the next statement as if nothing happened", async () => {
    const cache = new StatementCache(db);
    const insert = 'insert into note (id, body) values ($1, $2)';
    await cache.query(insert, [1, 'one'], {}, false);
    const mine = await cache.query(insert, [1, 'again'], {}, false).catch((e: unknown) => e);
    const pglite = await db.query(insert, [1, 'again']).catch((e: unknown) => e);
    expect(mine).toMatchObject({
      code: '23505',
      constraint: 'note_pkey',
      message: (pglite as Error).message,
      query: insert,
    });
    const syntax = await cache.query('select from where', [], {}, false).catch((e: unknown) => e);
    expect(syntax).toMatchObject({ code: '42601' });
    expect(cache.size).toBe(1);
    expect((await cache.query('select body from note where id = $1', [1], {}, false)).rows).toEqual([
      { body: 'one' },
    ]);
    await db.query('delete from note');
  });

  it('keeps at most its limit, closing the least recently used, and runs a dropped statement again', async () => {
    const cache = new StatementCache(db, 3);
    const before = (await preparedNames(db)).length;
    const statement = (n: number) => `select ${n} as n`;
    for (const n of [1, 2, 3]) await cache.query(statement(n), [], {}, false);
    await cache.query(statement(1), [], {}, false); // 1 is used again: 2 is the least recently used
    await cache.query(statement(4), [], {}, false);
    await cache.query(statement(5), [], {}, false);
    expect(cache.size).toBe(3);
    // Those left out are closed with the next preparation: 2 and 3 by now, 1 (left out for 6) next time.
    await cache.query(statement(6), [], {}, false);
    expect((await preparedNames(db)).length).toBe(before + 4);
    expect(await preparedTexts(db, [1, 2, 3, 4, 5, 6].map(statement))).toEqual([1, 4, 5, 6].map(statement));
    for (const n of [1, 2, 3, 4, 5, 6])
      expect((await cache.query(statement(n), [], {}, false)).rows).toEqual([{ n }]);
  });

  it('prepares again a statement DEALLOCATE closed and one whose columns a schema change altered', async () => {
    const cache = new StatementCache(db);
    await db.exec('create table shape (id int)');
    await cache.query('insert into shape values ($1)', [1], {}, false);
    expect((await cache.query('select * from shape', [], {}, false)).rows).toEqual([{ id: 1 }]);
    await db.exec('alter table shape add column name text');
    expect((await cache.query('select * from shape', [], {}, false)).rows).toEqual([{ id: 1, name: null }]);
    await db.exec('deallocate all');
    expect((await cache.query('select * from shape', [], {}, false)).rows).toEqual([{ id: 1, name: null }]);
    await cache.query('insert into shape values ($1)', [2], {}, false);
    expect((await db.query('select count(*)::int as n from shape')).rows).toEqual([{ n: 2 }]);
    // Inside a transaction block (even one PGlite's `transaction` did not open) the error stands.
    await db.exec('begin');
    await db.exec('deallocate all');
    await expect(cache.query('select * from shape', [], {}, false)).rejects.toMatchObject({ code: '26000' });
    await db.exec('rollback');
    expect((await cache.query('select * from shape', [], {}, false)).rows).toHaveLength(2);
  });

  it('drops every kept statement around one that may change the schema, so that new types are read', async () => {
    const cache = new StatementCache(db);
    await db.exec('create table kind (id int, code int)');
    const byCode = 'select id from kind where code = $1';
    await cache.query('insert into kind values ($1, $2)', [1, 7], {}, false);
    expect((await cache.query(byCode, [7], {}, false)).rows).toEqual([{ id: 1 }]);
    const change = 'alter table kind alter column code type text';
    cache.around(change);
    await db.exec(change);
    cache.around(change);
    expect(cache.size).toBe(0);
    // Its parameter is text now: prepared with the old integer type it would fail (text = integer).
    expect((await cache.query(byCode, ['7'], {}, false)).rows).toEqual([{ id: 1 }]);
    cache.around('select created_at, create_time from kind'); // names are not statements
    expect(cache.size).toBe(1);
  });

  it("runs inside PGlite's transaction, undone with it, and waits for an open one outside", async () => {
    const cache = new StatementCache(db);
    const insert = 'insert into note (id, body) values ($1, $2)';
    const { promise: held, release } = releasable();
    const { promise: insertedInside, release: inserted } = releasable();
    const transaction = db
      .transaction(async (tx) => {
        await cache.query(insert, [10, 'inside'], {}, true);
        inserted();
        await held;
        await tx.rollback();
      })
      .catch(() => undefined);
    await insertedInside;
    const outside = cache.query('select count(*)::int as n from note', [], {}, false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await transaction;
    // The statement outside waited for the transaction: it sees neither its row nor a half-done state.
    expect((await outside).rows).toEqual([{ n: 0 }]);
    const failed = db.transaction(async () => {
      await cache.query('select 1 / 0', [], {}, true);
    });
    await expect(failed).rejects.toMatchObject({ code: '22012' });
    expect((await cache.query('select count(*)::int as n from note', [], {}, false)).rows).toEqual([
      { n: 0 },
    ]);
  });
});
