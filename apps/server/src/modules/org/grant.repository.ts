import type { GrantSubject } from '@uiot/contracts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { department, permissionGrant, role, staff } from './org.schema.ts';

const subjectTables = { Role: role, Staff: staff, Department: department } as const;

export async function subjectExists(db: Db, subjectType: GrantSubject, subjectId: string): Promise<boolean> {
  const table = subjectTables[subjectType];
  const [row] = await db.select({ id: table.id }).from(table).where(eq(table.id, subjectId));
  return row !== undefined;
}

const ofSubject = (subjectType: GrantSubject, subjectId: string) =>
  and(eq(permissionGrant.subjectType, subjectType), eq(permissionGrant.subjectId, subjectId));

export async function grantedKeys(db: Db, subjectType: GrantSubject, subjectId: string): Promise<string[]> {
  const rows = await db
    .select({ permission: permissionGrant.permission })
    .from(permissionGrant)
    .where(ofSubject(subjectType, subjectId))
    .orderBy(asc(permissionGrant.permission));
  return rows.map((r) => r.permission);
}

/** The keys granted to each of some subjects of one type; a subject without keys is left out. */
export async function grantsOfSubjects(
  db: Db,
  subjectType: GrantSubject,
  subjectIds: readonly string[],
): Promise<Map<string, string[]>> {
  const rows =
    subjectIds.length === 0
      ? []
      : await db
          .select({ subjectId: permissionGrant.subjectId, permission: permissionGrant.permission })
          .from(permissionGrant)
          .where(
            and(
              eq(permissionGrant.subjectType, subjectType),
              inArray(permissionGrant.subjectId, [...subjectIds]),
            ),
          );
  const grants = new Map<string, string[]>();
  for (const row of rows) grants.set(row.subjectId, [...(grants.get(row.subjectId) ?? []), row.permission]);
  return grants;
}

/** Replaces the keys of a subject; run it in a transaction. */
export async function replaceGrants(
  db: Db,
  subjectType: GrantSubject,
  subjectId: string,
  keys: readonly string[],
): Promise<void> {
  await db.delete(permissionGrant).where(ofSubject(subjectType, subjectId));
  if (keys.length === 0) return;
  await db
    .insert(permissionGrant)
    .values([...new Set(keys)].map((permission) => ({ subjectType, subjectId, permission })));
}

/** Removes the grants a deleted staff member held itself. */
export async function deleteStaffGrants(db: Db, staffId: string): Promise<void> {
  await db.delete(permissionGrant).where(ofSubject('Staff', staffId));
}
