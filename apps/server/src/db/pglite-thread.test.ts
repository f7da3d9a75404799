import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releasable } from '../lib/test-support.ts';
import { PGLITE_START_PARAMS } from './client.ts';
import { PgliteThread } from './pglite-thread.ts';

describe('the embedded database thread', () => {
  let thread: PgliteThread;

  beforeAll(async () => {
    thread = await PgliteThread.start(null, PGLITE_START_PARAMS);
    await thread.exec('create table item (id int primary key, name text not null)');
  });
  afterAll(() => thread.close());

  it('answers queries with rows, as object or array rows, and keeps the types drizzle reads as text', async () => {
    await thread.query('insert into item values ($1, $2)', [1, 'one']);
    expect((await thread.query('select id, name from item')).rows).toEqual([{ id: 1, name: 'one' }]);
    expect((await thread.query('select id, name from item', [], { rowMode: 'array' })).rows).toEqual([
      [1, 'one'],
    ]);
    const at = await thread.query<{ t: unknown }>("select '2026-01-02 03:04:05+00'::timestamptz as t", [], {
      parsers: { 1184: (value: string) => value },
    });
    expect(at.rows[0]!.t).toBe('2026-01-02 03:04:05+00');
    await thread.query('delete from item');
  });

  it("passes PostgreSQL's error fields on and refuses parsers it cannot carry over", async () => {
    await thread.query('insert into item values (1, $1)', ['a']);
    const error = await thread.query('insert into item values (1, $1)', ['b']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 'item_pkey', table: 'item' });
    await expect(
      thread.query('select 1', [], { parsers: { 23: (value: string) => Number(value) * 2 } }),
    ).rejects.toThrow(/only keeps values as text/);
    await thread.query('delete from item');
  });

  it('commits a transaction, rolls it back when its function throws, and keeps other statements out meanwhile', async () => {
    const { promise: held, release } = releasable();
    const inside = thread.transaction(async (tx) => {
      await tx.query('insert into item values (2, $1)', ['two']);
      await held;
      await tx.query('insert into item values (3, $1)', ['three']);
      return 'committed';
    });
    // A statement from outside waits for the open transaction: it sees both rows or none.
    const outside = thread.query<{ n: number }>('select count(*)::int as n from item');
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    expect(await inside).toBe('committed');
    expect((await outside).rows[0]!.n).toBe(2);

    const failed = thread.transaction(async (tx) => {
      await tx.query('insert into item values (4, $1)', ['four']);
      throw new Error('changed my mind');
    });
    await expect(failed).rejects.toThrow('changed my mind');
    const explicit = await thread.transaction(async (tx) => {
      await tx.query('insert into item values (5, $1)', ['five']);
      await tx.rollback();
      return tx.closed;
    });
    expect(explicit).toBe(true);
    expect((await thread.query('select id from item order by id')).rows).toEqual([{ id: 2 }, { id: 3 }]);
    await thread.query('delete from item');
  });

  it('fails a commit whose transaction an error aborted', async () => {
    const aborted = thread.transaction(async (tx) => {
      await tx.query('insert into item values (6, $1)', ['six']);
      await tx.query('insert into item values (6, $1)', ['again']).catch(() => undefined);
    });
    await expect(aborted).rejects.toThrow();
    expect((await thread.query('select id from item')).rows).toEqual([]);
  });

  it('runs a batch in one transaction, undone when a row count differs from the expected one', async () => {
    const done = await thread.batch([
      { sql: 'insert into item values (7, $1) returning id', params: ['seven'], expectRowCount: 1 },
      { sql: 'select count(*)::int as n from item', params: [] },
    ]);
    expect(done).toEqual({
      done: true,
      results: [
        expect.objectContaining({ rows: [{ id: 7 }] }),
        expect.objectContaining({ rows: [{ n: 1 }] }),
      ],
    });
    const undone = await thread.batch([
      { sql: 'insert into item values (8, $1) returning id', params: ['eight'] },
      {
        sql: 'insert into item values (7, $1) on conflict do nothing returning id',
        params: ['x'],
        expectRowCount: 1,
      },
    ]);
    expect(undone).toEqual({ done: false });
    await expect(
      thread.batch([
        { sql: 'insert into item values (9, $1)', params: ['nine'] },
        { sql: 'insert into item values (7, $1)', params: ['clash'] },
      ]),
    ).rejects.toMatchObject({ code: '23505' });
    expect((await thread.query('select id from item')).rows).toEqual([{ id: 7 }]);
  });

  it('lets a statement that arrives while a batch runs go before the batches queued behind it', async () => {
    await thread.exec('create table arrival (n serial primary key, what text not null)');
    const running = thread.batch([
      { sql: 'select pg_sleep(0.3)', params: [] },
      { sql: "insert into arrival (what) values ('first batch')", params: [] },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const queued = thread.batch([{ sql: "insert into arrival (what) values ('second batch')", params: [] }]);
    const statement = thread.query("insert into arrival (what) values ('statement')");
    await Promise.all([running, queued, statement]);
    expect((await thread.query('select what from arrival order by n')).rows).toEqual([
      { what: 'first batch' },
      { what: 'statement' },
      { what: 'second batch' },
    ]);
  });

  it('keeps a statement on rows prepared: parsed once, run again with other parameters, inside transactions too', async () => {
    const select = 'select name from item where id = $1 and name <> $2';
    const count = async (text: string) =>
      (
        await thread.query<{ n: number }>(
          'select count(*)::int as n from pg_prepared_statements where not from_sql and statement = $1',
          [text],
        )
      ).rows[0]!.n;
    await thread.query('insert into item values ($1, $2), ($3, $4)', [20, 'twenty', 21, 'twenty-one']);
    expect((await thread.query(select, [20, ''])).rows).toEqual([{ name: 'twenty' }]);
    expect((await thread.query(select, [21, 'x'])).rows).toEqual([{ name: 'twenty-one' }]);
    expect(await count(select)).toBe(1);
    // A text only ever run inside transactions is kept as well.
    const inside = `${select} and id > $3`;
    for (const id of [20, 21]) {
      expect(await thread.transaction((tx) => tx.query(inside, [id, '', 0]))).toMatchObject({
        rows: [{}],
      });
    }
    expect(await count(inside)).toBe(1);
    // Statements that are not on rows go PGlite's own way and are not kept.
    await thread.query('set search_path = public');
    expect(
      (
        await thread.query<{ n: number }>(
          'select count(*)::int as n from pg_prepared_statements where not from_sql and statement ilike $1',
          ['set %'],
        )
      ).rows,
    ).toEqual([{ n: 0 }]);
    await thread.query('delete from item');
  });

  it('reads the new types of a kept statement once the schema changed, inside a transaction too', async () => {
    await thread.exec('create table shape (id int, code int)');
    await thread.query('insert into shape values ($1, $2)', [1, 7]);
    const byCode = 'select * from shape where code = $1';
    expect((await thread.query(byCode, [7])).rows).toEqual([{ id: 1, code: 7 }]);
    await thread.exec('alter table shape alter column code type text');
    expect((await thread.query(byCode, ['7'])).rows).toEqual([{ id: 1, code: '7' }]);
    const rows = await thread.transaction(async (tx) => {
      await tx.query('alter table shape add column note text');
      return (await tx.query(byCode, ['7'])).rows;
    });
    expect(rows).toEqual([{ id: 1, code: '7', note: null }]);
    await thread.exec('drop table shape');
  });

  it('runs named statements prepared once, with their parameters quoted as literals', async () => {
    const insert = (id: number, name: string | null) =>
      thread.batch([
        {
          sql: 'insert into item values ($1, $2) returning name',
          params: [id, name],
          name: 'item_insert',
          expectRowCount: 1,
        },
      ]);
    expect(await insert(10, "it's \\ fine")).toEqual({
      done: true,
      results: [expect.objectContaining({ rows: [{ name: "it's \\ fine" }] })],
    });
    await expect(insert(11, null)).rejects.toMatchObject({ code: '23502' });
    await expect(insert(12, 'nul \u0000')).rejects.toThrow(/NUL/);
    await expect(thread.batch([{ sql: 'select $1::int', params: [1], name: 'item_insert' }])).rejects.toThrow(
      /another text/,
    );
    expect((await thread.query('select id, name from item where id >= 10')).rows).toEqual([
      { id: 10, name: "it's \\ fine" },
    ]);
  });

  it('runs named statements with no count to check in one call, all or nothing', async () => {
    const pair = (first: number, second: number) =>
      thread.batch([
        { sql: 'insert into item values ($1, $2)', params: [first, 'first'], name: 'item_first' },
        {
          sql: 'insert into item values ($1, $2) returning id',
          params: [second, 'second'],
          name: 'item_second',
        },
      ]);
    expect(await pair(20, 21)).toEqual({
      done: true,
      results: [expect.objectContaining({ rows: [] }), expect.objectContaining({ rows: [{ id: 21 }] })],
    });
    // The second clashes with the row just written: the first of the pair is undone with it.
    await expect(pair(22, 21)).rejects.toMatchObject({ code: '23505' });
    // The first clashes: the second never runs.
    await expect(pair(20, 23)).rejects.toMatchObject({ code: '23505' });
    expect((await thread.query('select id from item where id >= 20 order by id')).rows).toEqual([
      { id: 20 },
      { id: 21 },
    ]);
    // The thread goes on after a failed call, outside any transaction.
    expect(await pair(24, 25)).toMatchObject({ done: true });
    expect((await thread.query('select count(*)::int as n from item where id >= 20')).rows).toEqual([
      { n: 4 },
    ]);
  });

  it('hands notifications of a channel on before the answer of the statement that committed them', async () => {
    const heard: string[] = [];
    const unlisten = await thread.listen('item_change', (payload) => heard.push(payload));
    await thread.query("select pg_notify('item_change', 'one')");
    expect(heard).toEqual(['one']);
    await thread.transaction(async (tx) => {
      await tx.query("select pg_notify('item_change', 'two')");
      expect(heard).toEqual(['one']);
    });
    expect(heard).toEqual(['one', 'two']);
    await unlisten();
    await thread.query("select pg_notify('item_change', 'three')");
    expect(heard).toEqual(['one', 'two']);
  });

  it('refuses every call once closed', async () => {
    await thread.close();
    expect(thread.running).toBe(false);
    await expect(thread.query('select 1')).rejects.toThrow(/closed/);
  });
});
