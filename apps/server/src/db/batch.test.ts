import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, type TestDatabase } from '../../test/support/databases.ts';
import { transactionBatch } from './batch.ts';
import { rowsOf } from './rows.ts';

describe.each(databases)('transactionBatch ($kind)', ({ open }) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await open();
    await database.db.execute(sql`create table batch_item (id int primary key)`);
  });
  afterAll(() => database?.close());

  const ids = async () =>
    rowsOf<{ id: number }>(await database.db.execute(sql`select id from batch_item order by id`)).map(
      (r) => r.id,
    );

  it('commits every statement and answers their rows', async () => {
    const outcome = await transactionBatch(database.db, [
      { query: sql`insert into batch_item values (1), (2) returning id`, expectRowCount: 2 },
      { query: sql`select count(*)::int as n from batch_item` },
    ]);
    expect(outcome).toEqual({ done: true, rows: [[{ id: 1 }, { id: 2 }], [{ n: 2 }]] });
    expect(await ids()).toEqual([1, 2]);
  });

  it('undoes the whole batch when a statement returns another number of rows', async () => {
    const outcome = await transactionBatch(database.db, [
      { query: sql`insert into batch_item values (3) returning id` },
      {
        query: sql`insert into batch_item values (1), (4) on conflict do nothing returning id`,
        expectRowCount: 2,
      },
      { query: sql`insert into batch_item values (5)` },
    ]);
    expect(outcome).toEqual({ done: false });
    expect(await ids()).toEqual([1, 2]);
  });

  it('counts the rows a statement inserted when it answers none', async () => {
    const counted = await transactionBatch(database.db, [
      { query: sql`insert into batch_item values (7), (8)`, expectRowCount: 2 },
    ]);
    expect(counted).toEqual({ done: true, rows: [[]] });
    const short = await transactionBatch(database.db, [
      { query: sql`insert into batch_item values (8), (9) on conflict do nothing`, expectRowCount: 2 },
    ]);
    expect(short).toEqual({ done: false });
    await database.db.execute(sql`delete from batch_item where id > 2`);
  });

  it('undoes the whole batch and throws when a statement fails', async () => {
    await expect(
      transactionBatch(database.db, [
        { query: sql`insert into batch_item values (6)` },
        { query: sql`insert into batch_item values (1)` },
      ]),
    ).rejects.toThrow();
    expect(await ids()).toEqual([1, 2]);
  });
});
