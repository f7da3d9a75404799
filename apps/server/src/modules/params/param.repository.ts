import type { Page, PageQuery, ParamForm, ParamRow, ParamValType } from '@uiot/contracts';
import { and, asc, eq, ne, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { containsText, paged } from '../../db/paging.ts';
import { param } from './params.schema.ts';
import { isBuiltInParam } from './settings.ts';

export interface ParamSearch {
  name?: string | undefined;
  group?: string | undefined;
}

const paramRowColumns = {
  id: param.id,
  name: param.name,
  valType: param.valType,
  val: param.val,
  cls: param.cls,
  defVal: param.defVal,
  desc: param.desc,
  editable: param.editable,
  group: param.group,
  isPublic: param.isPublic,
  updatedAt: param.updatedAt,
};

const selectParamRows = (db: Db, where: SQL | undefined) =>
  db.select(paramRowColumns).from(param).where(where).$dynamic();

type ParamRecord = Awaited<ReturnType<typeof selectParamRows>>[number];

const toParamRow = (r: ParamRecord): ParamRow => ({
  ...r,
  valType: r.valType as ParamValType,
  builtIn: isBuiltInParam(r.name),
  updatedAt: r.updatedAt.toISOString(),
});

export async function queryParams(db: Db, search: ParamSearch, page: PageQuery): Promise<Page<ParamRow>> {
  const where = and(
    search.name ? containsText(param.name, search.name) : undefined,
    search.group ? eq(param.group, search.group) : undefined,
  );
  const sortable = { name: param.name, group: param.group, updatedAt: param.updatedAt };
  const result = await paged(db, selectParamRows(db, where), sortable, page, { tieBreaker: param.id });
  return { total: result.total, rows: result.rows.map(toParamRow) };
}

export async function allParams(db: Db): Promise<ParamRow[]> {
  const rows = await selectParamRows(db, undefined).orderBy(asc(param.group), asc(param.name));
  return rows.map(toParamRow);
}

export async function paramById(db: Db, id: string): Promise<ParamRow | undefined> {
  const [row] = await selectParamRows(db, eq(param.id, id));
  return row && toParamRow(row);
}

/** Name to value (the default when no value is set) of the parameters of one class; the public ones only if asked. */
export async function paramValuesOfClass(
  db: Db,
  cls: string,
  publicOnly: boolean,
): Promise<Record<string, string>> {
  const rows = await db
    .select({ name: param.name, val: param.val, defVal: param.defVal })
    .from(param)
    .where(and(eq(param.cls, cls), publicOnly ? eq(param.isPublic, true) : undefined))
    .orderBy(asc(param.name));
  return Object.fromEntries(rows.map((r) => [r.name, r.val ?? r.defVal ?? '']));
}

/** The value of a parameter (its default when no value is set, null when neither) and whether it is public. */
export async function paramValueByName(
  db: Db,
  name: string,
): Promise<{ value: string | null; isPublic: boolean } | undefined> {
  const [row] = await db
    .select({ val: param.val, defVal: param.defVal, isPublic: param.isPublic })
    .from(param)
    .where(eq(param.name, name));
  return row && { value: row.val ?? row.defVal, isPublic: row.isPublic };
}

export async function paramNameTaken(db: Db, name: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: param.id })
    .from(param)
    .where(and(eq(param.name, name), exceptId ? ne(param.id, exceptId) : undefined))
    .limit(1);
  return row !== undefined;
}

const columnsOf = (form: ParamForm) => ({
  name: form.name,
  valType: form.valType,
  val: form.val ?? null,
  cls: form.cls ?? null,
  defVal: form.defVal ?? null,
  desc: form.desc ?? null,
  editable: form.editable,
  group: form.group ?? null,
});

export async function insertParam(db: Db, form: ParamForm): Promise<string> {
  const [row] = await db
    .insert(param)
    .values({ ...columnsOf(form), isPublic: form.isPublic ?? false })
    .returning({ id: param.id });
  return row!.id;
}

/** Updates a parameter; a form without `isPublic` leaves the flag as it is. */
export async function updateParamRow(db: Db, id: string, form: ParamForm): Promise<void> {
  await db
    .update(param)
    .set({
      ...columnsOf(form),
      ...(form.isPublic === undefined ? {} : { isPublic: form.isPublic }),
      updatedAt: new Date(),
    })
    .where(eq(param.id, id));
}

export async function deleteParamRow(db: Db, id: string): Promise<void> {
  await db.delete(param).where(eq(param.id, id));
}
