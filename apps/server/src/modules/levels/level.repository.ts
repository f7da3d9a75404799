import type {
  DamageLevelForm,
  DamageLevelRow,
  Page,
  PageQuery,
  PowerLevelForm,
  PowerLevelRow,
  PowerLevelState,
} from '@uiot/contracts';
import { asc, eq, ne, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { paged } from '../../db/paging.ts';
import type { LevelRange } from './level-ranges.ts';
import { damageLevel, powerLevel } from './levels.schema.ts';

/** The two kinds of level: their tables share the columns a range needs. */
export type LevelTable = typeof powerLevel | typeof damageLevel;

const powerColumns = {
  id: powerLevel.id,
  level: powerLevel.level,
  startValue: powerLevel.startValue,
  endValue: powerLevel.endValue,
  availableDays: powerLevel.availableDays,
  state: powerLevel.state,
  updatedAt: powerLevel.updatedAt,
};

const damageColumns = {
  id: damageLevel.id,
  level: damageLevel.level,
  description: damageLevel.description,
  startValue: damageLevel.startValue,
  endValue: damageLevel.endValue,
  updatedAt: damageLevel.updatedAt,
};

const toPowerRow = (r: { state: string; updatedAt: Date } & Omit<PowerLevelRow, 'state' | 'updatedAt'>) => ({
  ...r,
  state: r.state as PowerLevelState,
  updatedAt: r.updatedAt.toISOString(),
});

const toDamageRow = (r: Omit<DamageLevelRow, 'updatedAt'> & { updatedAt: Date }): DamageLevelRow => ({
  ...r,
  updatedAt: r.updatedAt.toISOString(),
});

/** Columns a page may be sorted by; the level's number unless the page names one. */
const sortableOf = (table: LevelTable) => ({
  level: table.level,
  startValue: table.startValue,
  endValue: table.endValue,
  updatedAt: table.updatedAt,
});

export async function queryPowerLevels(
  db: Db,
  search: { state?: PowerLevelState | undefined },
  page: PageQuery,
): Promise<Page<PowerLevelRow>> {
  const where = search.state ? eq(powerLevel.state, search.state) : undefined;
  const query = db.select(powerColumns).from(powerLevel).where(where).$dynamic();
  const result = await paged(db, query, sortableOf(powerLevel), page, { tieBreaker: powerLevel.id });
  return { total: result.total, rows: result.rows.map(toPowerRow) };
}

export async function allPowerLevels(db: Db): Promise<PowerLevelRow[]> {
  const rows = await db.select(powerColumns).from(powerLevel).orderBy(asc(powerLevel.startValue));
  return rows.map(toPowerRow);
}

export async function queryDamageLevels(db: Db, page: PageQuery): Promise<Page<DamageLevelRow>> {
  const query = db.select(damageColumns).from(damageLevel).$dynamic();
  const result = await paged(db, query, sortableOf(damageLevel), page, { tieBreaker: damageLevel.id });
  return { total: result.total, rows: result.rows.map(toDamageRow) };
}

export async function allDamageLevels(db: Db): Promise<DamageLevelRow[]> {
  const rows = await db.select(damageColumns).from(damageLevel).orderBy(asc(damageLevel.startValue));
  return rows.map(toDamageRow);
}

/** The ranges of a kind's levels, but the one of `exceptId` (the level being updated). */
export async function otherRanges(db: Db, table: LevelTable, exceptId?: string): Promise<LevelRange[]> {
  const where: SQL | undefined = exceptId ? ne(table.id, exceptId) : undefined;
  return db
    .select({ level: table.level, startValue: table.startValue, endValue: table.endValue })
    .from(table)
    .where(where);
}

export async function levelExists(db: Db, table: LevelTable, id: string): Promise<boolean> {
  const [row] = await db.select({ id: table.id }).from(table).where(eq(table.id, id));
  return row !== undefined;
}

export async function insertPowerLevel(db: Db, form: PowerLevelForm): Promise<string> {
  const [row] = await db.insert(powerLevel).values(form).returning({ id: powerLevel.id });
  return row!.id;
}

export async function updatePowerLevelRow(db: Db, id: string, form: PowerLevelForm): Promise<void> {
  await db
    .update(powerLevel)
    .set({ ...form, updatedAt: new Date() })
    .where(eq(powerLevel.id, id));
}

const damageValues = (form: DamageLevelForm) => ({
  level: form.level,
  description: form.description ?? null,
  startValue: form.startValue,
  endValue: form.endValue,
});

export async function insertDamageLevel(db: Db, form: DamageLevelForm): Promise<string> {
  const [row] = await db.insert(damageLevel).values(damageValues(form)).returning({ id: damageLevel.id });
  return row!.id;
}

export async function updateDamageLevelRow(db: Db, id: string, form: DamageLevelForm): Promise<void> {
  await db
    .update(damageLevel)
    .set({ ...damageValues(form), updatedAt: new Date() })
    .where(eq(damageLevel.id, id));
}

export async function deleteLevelRow(db: Db, table: LevelTable, id: string): Promise<void> {
  await db.delete(table).where(eq(table.id, id));
}
