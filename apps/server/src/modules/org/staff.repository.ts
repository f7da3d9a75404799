import type { Page, PageQuery, StaffRow, StaffStatus } from '@uiot/contracts';
import { and, asc, eq, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { containsText, paged } from '../../db/paging.ts';
import { inSubtree } from '../../db/tree.ts';
import { file } from '../../infra/files/files.schema.ts';
import { departmentTree } from './department.repository.ts';
import { deleteStaffGrants } from './grant.repository.ts';
import { department, role, staff, staffRole } from './org.schema.ts';

export interface StaffSearch {
  name?: string | undefined;
  deptId?: string | undefined;
  staffType?: number | undefined;
  status?: StaffStatus | undefined;
}

/** Roles of the staff member of the outer query, by role name. */
const rolesOf = (column: SQL) =>
  sql<string[]>`array(select ${column} from ${staffRole} join ${role} on ${role.id} = ${staffRole.roleId}
    where ${staffRole.staffId} = ${staff.id} order by ${role.name}, ${role.id})`;

/** What refers to a staff member's signature in the file store: this and the staff id. */
export const SIGNATURE_REF = 'staffSignature';

/** The columns of a staff row: never the password hash, never the signature itself. */
const staffRowColumns = {
  id: staff.id,
  name: staff.name,
  deptId: staff.deptId,
  deptName: department.name,
  age: staff.age,
  sex: staff.sex,
  email: staff.email,
  telNo: staff.telNo,
  address: staff.address,
  notes: staff.notes,
  faxNo: staff.faxNo,
  rfidCode: staff.rfidCode,
  staffType: staff.staffType,
  status: staff.status,
  hasSignature: sql<boolean>`exists(select 1 from ${file}
    where ${file.refType} = ${SIGNATURE_REF} and ${file.refId} = ${staff.id})`,
  roleIds: rolesOf(sql`${role.id}`),
  roleNames: rolesOf(sql`${role.name}`),
  createdAt: staff.createdAt,
};

function selectStaffRows(db: Db, where: SQL | undefined) {
  return db
    .select(staffRowColumns)
    .from(staff)
    .leftJoin(department, eq(department.id, staff.deptId))
    .where(where)
    .$dynamic();
}

type StaffRecord = Awaited<ReturnType<typeof selectStaffRows>>[number];

const toStaffRow = (r: StaffRecord): StaffRow => ({
  ...r,
  status: r.status as StaffStatus,
  createdAt: r.createdAt.toISOString(),
});

const STAFF_SORTS = {
  name: staff.name,
  createdAt: staff.createdAt,
  staffType: staff.staffType,
  status: staff.status,
};

export async function queryStaff(db: Db, search: StaffSearch, page: PageQuery): Promise<Page<StaffRow>> {
  const where = and(
    search.name ? containsText(staff.name, search.name) : undefined,
    search.deptId ? inSubtree(staff.deptId, departmentTree, search.deptId) : undefined,
    search.staffType !== undefined ? eq(staff.staffType, search.staffType) : undefined,
    search.status ? eq(staff.status, search.status) : undefined,
  );
  const result = await paged(db, selectStaffRows(db, where), STAFF_SORTS, page, { tieBreaker: staff.id });
  return { total: result.total, rows: result.rows.map(toStaffRow) };
}

export async function staffRowById(db: Db, id: string): Promise<StaffRow | undefined> {
  const [row] = await selectStaffRows(db, eq(staff.id, id));
  return row && toStaffRow(row);
}

/** Activated staff (id and name), optionally of one department, by name. */
export function activeStaffOptions(db: Db, deptId?: string) {
  return db
    .select({ id: staff.id, name: staff.name })
    .from(staff)
    .where(and(eq(staff.status, 'activated'), deptId ? eq(staff.deptId, deptId) : undefined))
    .orderBy(asc(staff.name), asc(staff.id));
}

export async function staffExists(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: staff.id }).from(staff).where(eq(staff.id, id));
  return row !== undefined;
}

/** Which of the named staff members, roles and departments exist, as `kind:id`. */
export async function existingOrgTargets(
  db: Db,
  targets: readonly { kind: string; id: string }[],
): Promise<Set<string>> {
  const ids = (kind: string) => targets.filter((r) => r.kind === kind).map((r) => r.id);
  const found = new Set<string>();
  const look = async (kind: string, table: typeof staff | typeof role | typeof department) => {
    const wanted = ids(kind);
    if (wanted.length === 0) return;
    const rows = await db.select({ id: table.id }).from(table).where(inArray(table.id, wanted));
    for (const row of rows) found.add(`${kind}:${row.id}`);
  };
  await look('staff', staff);
  await look('role', role);
  await look('department', department);
  return found;
}

/** How a staff member is reached outside the console. */
export interface StaffContact {
  id: string;
  name: string;
  email: string | null;
  telNo: string | null;
}

/**
 * The active staff among the named members, the holders of the roles and the members of the departments
 * (with their sub-departments), each once: who a notification goes to.
 */
export async function staffContacts(
  db: Db,
  of: { staffIds?: readonly string[]; roleIds?: readonly string[]; departmentIds?: readonly string[] },
): Promise<StaffContact[]> {
  const { staffIds = [], roleIds = [], departmentIds = [] } = of;
  const who: SQL[] = [];
  if (staffIds.length > 0) who.push(inArray(staff.id, [...staffIds]));
  if (roleIds.length > 0)
    who.push(
      sql`exists (select 1 from ${staffRole} where ${staffRole.staffId} = ${staff.id} and ${inArray(staffRole.roleId, [...roleIds])})`,
    );
  for (const deptId of departmentIds) who.push(inSubtree(staff.deptId, departmentTree, deptId));
  if (who.length === 0) return [];
  return db
    .select({ id: staff.id, name: staff.name, email: staff.email, telNo: staff.telNo })
    .from(staff)
    .where(and(eq(staff.status, 'activated'), or(...who)))
    .orderBy(asc(staff.name), asc(staff.id));
}

/** The department of a staff member (null: none), or undefined when the staff member does not exist. */
export async function staffDeptId(db: Db, id: string): Promise<string | null | undefined> {
  const [row] = await db.select({ deptId: staff.deptId }).from(staff).where(eq(staff.id, id));
  return row?.deptId;
}

export async function staffNameTaken(db: Db, name: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: staff.id })
    .from(staff)
    .where(
      and(sql`lower(${staff.name}) = ${name.toLowerCase()}`, exceptId ? ne(staff.id, exceptId) : undefined),
    )
    .limit(1);
  return row !== undefined;
}

export async function roleIdsOf(db: Db, staffId: string): Promise<string[]> {
  const rows = await db
    .select({ roleId: staffRole.roleId })
    .from(staffRole)
    .where(eq(staffRole.staffId, staffId))
    .orderBy(asc(staffRole.roleId));
  return rows.map((r) => r.roleId);
}

/** Staff whose signature is still a data URL in the row, as it was kept before the file store. */
export function staffWithLegacySignature(db: Db) {
  return db
    .select({ id: staff.id, signature: staff.signature })
    .from(staff)
    .where(sql`${staff.signature} is not null`);
}

export type StaffValues = Partial<Omit<typeof staff.$inferInsert, 'id' | 'createdAt'>>;

export async function insertStaff(
  db: Db,
  values: StaffValues & Pick<typeof staff.$inferInsert, 'name' | 'passwordHash'>,
): Promise<string> {
  const [row] = await db.insert(staff).values(values).returning({ id: staff.id });
  return row!.id;
}

export async function updateStaffRow(db: Db, id: string, values: StaffValues): Promise<void> {
  await db
    .update(staff)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(staff.id, id));
}

export async function replaceStaffRoles(db: Db, staffId: string, roleIds: readonly string[]): Promise<void> {
  await db.delete(staffRole).where(eq(staffRole.staffId, staffId));
  if (roleIds.length === 0) return;
  await db.insert(staffRole).values([...new Set(roleIds)].map((roleId) => ({ staffId, roleId })));
}

/**
 * Deletes a staff member with its role links, its own grants and its sessions. Rows that name the staff
 * member elsewhere (login log, operation log) stay as history.
 */
export async function deleteStaffRow(db: Db, id: string): Promise<void> {
  await deleteStaffGrants(db, id);
  await db.delete(staffRole).where(eq(staffRole.staffId, id));
  await db.delete(staff).where(eq(staff.id, id));
}
