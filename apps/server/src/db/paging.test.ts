import { and, eq, gt, lte, sql } from 'drizzle-orm';
import { alias, integer, PgDialect, pgTable, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, type TestDatabase } from '../../test/support/databases.ts';
import { countQuery, paged } from './paging.ts';
import { rowsOf } from './rows.ts';

const shelf = pgTable('paging_shelf', { id: integer().primaryKey(), name: text().notNull() });
const book = pgTable('paging_book', {
  id: integer().primaryKey(),
  title: text().notNull(),
  shelfId: integer('shelf_id'),
});
const tag = pgTable('paging_tag', { bookId: integer('book_id').notNull(), label: text().notNull() });

describe.each(databases)('paged ($kind)', ({ open }) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await open();
    await database.db.execute(sql`create table paging_shelf (id int primary key, name text not null)`);
    await database.db.execute(
      sql`create table paging_book (id int primary key, title text not null, shelf_id int)`,
    );
    await database.db.execute(sql`create table paging_tag (book_id int not null, label text not null)`);
    await database.db.execute(sql`insert into paging_shelf values (1, 'near'), (2, 'far')`);
    await database.db.execute(sql`insert into paging_book
      select g, 'book ' || lpad(g::text, 2, '0'), case when g % 3 = 0 then null else 1 + g % 2 end
      from generate_series(1, 25) g`);
    // Three tags on each of the first four books: a join that multiplies rows.
    await database.db.execute(sql`insert into paging_tag
      select b, 'tag ' || t from generate_series(1, 4) b, generate_series(1, 3) t`);
  });
  afterAll(() => database?.close());

  const books = () =>
    database.db
      .select({
        id: book.id,
        title: book.title,
        shelf: shelf.name,
        tags: sql<number>`(select count(*)::int from ${tag} where ${tag.bookId} = ${book.id})`,
      })
      .from(book)
      .leftJoin(shelf, eq(shelf.id, book.shelfId))
      .$dynamic();

  it('counts the rows of the joins and the filter, without the select list', async () => {
    const query = books().where(eq(shelf.name, 'far'));
    const counting = new PgDialect().sqlToQuery(countQuery(query)).sql;
    expect(counting).toMatch(/^select count\(\*\) as "total" from "paging_book" left join "paging_shelf"/);
    expect(counting).not.toContain('paging_tag');
    const page = await paged(database.db, query, { title: book.title }, { pageIndex: 2, pageSize: 5 });
    // Books 1, 3, 5, …, 25 without the multiples of 3: on shelf 2 ("far").
    const far = Array.from({ length: 25 }, (_, i) => i + 1).filter((g) => g % 3 !== 0 && g % 2 === 1);
    expect(page.total).toBe(far.length);
    expect(page.rows.map((r) => r.id)).toEqual(far.slice(5, 10));
  });

  it('keeps the rows a join adds, and answers the total past the last page', async () => {
    const query = database.db
      .select({ id: book.id, label: tag.label })
      .from(book)
      .innerJoin(tag, eq(tag.bookId, book.id))
      .$dynamic();
    const page = await paged(database.db, query, { id: book.id }, { pageIndex: 9, pageSize: 5 });
    expect(page).toEqual({ rows: [], total: 12 });
  });

  it('counts a DISTINCT or grouped query as a whole', async () => {
    const distinct = database.db
      .selectDistinct({ id: book.id })
      .from(book)
      .innerJoin(tag, eq(tag.bookId, book.id))
      .$dynamic();
    const page = await paged(database.db, distinct, { id: book.id }, { pageIndex: 1, pageSize: 3 });
    expect(page.total).toBe(4);
    expect(page.rows.map((r) => r.id)).toEqual([1, 2, 3]);

    const grouped = database.db
      .select({ shelfId: book.shelfId, n: sql<number>`count(*)::int` })
      .from(book)
      .groupBy(book.shelfId)
      .$dynamic();
    const groups = await paged(
      database.db,
      grouped,
      { shelfId: book.shelfId },
      { pageIndex: 1, pageSize: 10 },
    );
    expect(groups.total).toBe(3);
  });

  it('counts a set operation as a whole', async () => {
    const union = database.db
      .select({ id: book.id })
      .from(book)
      .where(lte(book.id, 3))
      .unionAll(database.db.select({ id: book.id }).from(book).where(lte(book.id, 2)))
      .$dynamic();
    const [counted] = rowsOf<{ total: unknown }>(await database.db.execute(countQuery(union)));
    expect(Number(counted?.total)).toBe(5);
  });

  it('counts through an aliased join, with parameters in the select list and the filter', async () => {
    const other = alias(shelf, 'paging_other_shelf');
    const query = database.db
      .select({ id: book.id, mark: sql<string>`${'mark'}::text`, shelf: other.name })
      .from(book)
      .innerJoin(other, and(eq(other.id, book.shelfId), eq(other.name, 'near')))
      .where(gt(book.id, 10))
      .$dynamic();
    const page = await paged(database.db, query, { id: book.id }, { pageIndex: 1, pageSize: 2 });
    // Books 11–25 on shelf 1 ("near"): even, and not multiples of 3.
    const near = Array.from({ length: 15 }, (_, i) => i + 11).filter((g) => g % 3 !== 0 && g % 2 === 0);
    expect(page.total).toBe(near.length);
    expect(page.rows).toEqual(near.slice(0, 2).map((id) => ({ id, mark: 'mark', shelf: 'near' })));
  });

  it('answers 0 for a query without rows', async () => {
    const page = await paged(
      database.db,
      books().where(eq(book.id, -1)),
      { id: book.id },
      {
        pageIndex: 1,
        pageSize: 10,
      },
    );
    expect(page).toEqual({ rows: [], total: 0 });
  });
});
