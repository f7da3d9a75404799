import type { KeyForm, KeyRow, KeyState, Page, PageQuery } from '@uiot/contracts';
import { and, eq, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { containsText, paged } from '../../db/paging.ts';
import { inSubtree } from '../../db/tree.ts';
import { departmentTree } from '../org/index.ts';
import { department, staff } from '../org/org.schema.ts';
import { lockKey } from './devices.schema.ts';

export interface KeySearch {
  keyword?: string | undefined;
  staffId?: string | undefined;
  deptId?: string | undefined;
  holderDisabled?: boolean | undefined;
  state?: KeyState | undefined;
}

/** A key is flagged when its holder is a disabled staff member (spec §2 key ledger). */
const holderDisabled = sql<boolean>`coalesce(${staff.status} = 'disabled', false)`;

const KEY_SORTS = {
  name: lockKey.name,
  code: lockKey.code,
  staffName: staff.name,
  holderDisabled,
  deptName: department.name,
  desc: lockKey.description,
  state: lockKey.state,
  createdAt: lockKey.createdAt,
};

/** A key row: every sort column and the ids behind the names. */
const keyColumns = { id: lockKey.id, staffId: lockKey.staffId, deptId: lockKey.deptId, ...KEY_SORTS };

function selectKeys(db: Db, where: SQL | undefined) {
  return db
    .select(keyColumns)
    .from(lockKey)
    .leftJoin(staff, eq(staff.id, lockKey.staffId))
    .leftJoin(department, eq(department.id, lockKey.deptId))
    .where(where)
    .$dynamic();
}

/** Keys by name or code, holder, department (and the departments below it), the holder flag and state. */
export async function queryKeys(db: Db, search: KeySearch, page: PageQuery): Promise<Page<KeyRow>> {
  const where = and(
    search.keyword
      ? or(containsText(lockKey.name, search.keyword), containsText(lockKey.code, search.keyword))
      : undefined,
    search.staffId ? eq(lockKey.staffId, search.staffId) : undefined,
    search.deptId ? inSubtree(lockKey.deptId, departmentTree, search.deptId) : undefined,
    search.holderDisabled === undefined
      ? undefined
      : search.holderDisabled
        ? holderDisabled
        : sql`not ${holderDisabled}`,
    search.state ? eq(lockKey.state, search.state) : undefined,
  );
  const result = await paged(db, selectKeys(db, where), KEY_SORTS, page, { tieBreaker: lockKey.id });
  return {
    total: result.total,
    rows: result.rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
  };
}

export async function keyExists(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: lockKey.id }).from(lockKey).where(eq(lockKey.id, id));
  return row !== undefined;
}

/** Whether another key has the code, ignoring case. */
export async function keyCodeTaken(db: Db, code: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: lockKey.id })
    .from(lockKey)
    .where(
      and(
        sql`lower(${lockKey.code}) = ${code.toLowerCase()}`,
        exceptId ? ne(lockKey.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The columns a key form sets. */
export const keyFormColumns = (form: KeyForm) => ({
  name: form.name,
  code: form.code,
  staffId: form.staffId ?? null,
  deptId: form.deptId ?? null,
  description: form.desc ?? null,
  state: form.state,
});

export async function insertKey(db: Db, form: KeyForm): Promise<string> {
  const [row] = await db.insert(lockKey).values(keyFormColumns(form)).returning({ id: lockKey.id });
  return row!.id;
}

export async function updateKey(db: Db, id: string, form: KeyForm): Promise<void> {
  await db
    .update(lockKey)
    .set({ ...keyFormColumns(form), updatedAt: new Date() })
    .where(eq(lockKey.id, id));
}

export async function deleteKey(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(lockKey).where(eq(lockKey.id, id)).returning({ id: lockKey.id });
  return rows.length > 0;
}
