import type {
  AuthorizationState,
  FixedAuthorizationForm,
  FixedAuthorizationRow,
  Page,
  PageQuery,
} from '@uiot/contracts';
import { and, asc, eq, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { containsText, paged } from '../../db/paging.ts';
import { device } from '../devices/devices.schema.ts';
import { department, staff } from '../org/org.schema.ts';
import { fixedAuthorization, fixedAuthorizationDevice } from './tasks.schema.ts';

export interface AuthorizationSearch {
  objectType?: 'staff' | 'department' | undefined;
  keyword?: string | undefined;
  deviceId?: string | undefined;
  state?: AuthorizationState | undefined;
}

const objectName = sql<string>`coalesce(${staff.name}, ${department.name}, '')`;

/** Where an authorisation stands at `now` (a forever one is always in force). */
function stateAt(now: Date): SQL<AuthorizationState> {
  return sql<AuthorizationState>`case
    when ${fixedAuthorization.forever} then 'active'
    when ${fixedAuthorization.startTime} > ${now} then 'upcoming'
    when ${fixedAuthorization.endTime} <= ${now} then 'expired'
    else 'active' end`;
}

function stateIs(state: AuthorizationState, now: Date): SQL | undefined {
  const { forever, startTime, endTime } = fixedAuthorization;
  switch (state) {
    case 'active':
      return sql`(${forever} or (${startTime} <= ${now} and ${endTime} > ${now}))`;
    case 'upcoming':
      return sql`(not ${forever} and ${startTime} > ${now})`;
    case 'expired':
      return sql`(not ${forever} and ${endTime} <= ${now})`;
  }
}

/** Fixed authorisations, newest change first unless sorted, with their object's and devices' names. */
export async function queryAuthorizations(
  db: Db,
  search: AuthorizationSearch,
  page: PageQuery,
  now: Date,
): Promise<Page<FixedAuthorizationRow>> {
  const where = and(
    search.objectType === 'staff' ? isNotNull(fixedAuthorization.staffId) : undefined,
    search.objectType === 'department' ? isNotNull(fixedAuthorization.deptId) : undefined,
    search.keyword ? containsText(objectName, search.keyword) : undefined,
    search.deviceId
      ? sql`(${fixedAuthorization.allDevice} or exists (select 1 from ${fixedAuthorizationDevice}
          where ${fixedAuthorizationDevice.authorizationId} = ${fixedAuthorization.id}
          and ${fixedAuthorizationDevice.deviceId} = ${search.deviceId}))`
      : undefined,
    search.state ? stateIs(search.state, now) : undefined,
  );
  const query = db
    .select({
      id: fixedAuthorization.id,
      staffId: fixedAuthorization.staffId,
      deptId: fixedAuthorization.deptId,
      objectName,
      forever: fixedAuthorization.forever,
      startTime: fixedAuthorization.startTime,
      endTime: fixedAuthorization.endTime,
      state: stateAt(now),
      allDevice: fixedAuthorization.allDevice,
      createdByName: fixedAuthorization.createdByName,
      updatedAt: fixedAuthorization.updatedAt,
    })
    .from(fixedAuthorization)
    .leftJoin(staff, eq(staff.id, fixedAuthorization.staffId))
    .leftJoin(department, eq(department.id, fixedAuthorization.deptId))
    .where(where)
    .$dynamic();
  const result = await paged(
    db,
    query,
    {
      updatedAt: fixedAuthorization.updatedAt,
      objectName,
      startTime: fixedAuthorization.startTime,
      endTime: fixedAuthorization.endTime,
    },
    page,
    { defaultSort: { by: 'updatedAt', ascending: false }, tieBreaker: fixedAuthorization.id },
  );
  const devices = await devicesOf(
    db,
    result.rows.filter((r) => !r.allDevice).map((r) => r.id),
  );
  return {
    total: result.total,
    rows: result.rows.map(({ staffId, deptId, ...r }) => ({
      ...r,
      objectType: staffId ? 'staff' : 'department',
      objectId: (staffId ?? deptId)!,
      startTime: r.forever ? null : (r.startTime?.toISOString() ?? null),
      endTime: r.forever ? null : (r.endTime?.toISOString() ?? null),
      devices: devices.get(r.id) ?? [],
      updatedAt: r.updatedAt.toISOString(),
    })),
  };
}

/** The devices of each authorisation, by name. */
async function devicesOf(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, { id: string; name: string }[]>> {
  const byAuthorization = new Map<string, { id: string; name: string }[]>();
  if (ids.length === 0) return byAuthorization;
  const rows = await db
    .select({
      authorizationId: fixedAuthorizationDevice.authorizationId,
      id: device.id,
      name: device.name,
    })
    .from(fixedAuthorizationDevice)
    .innerJoin(device, eq(device.id, fixedAuthorizationDevice.deviceId))
    .where(inArray(fixedAuthorizationDevice.authorizationId, [...ids]))
    .orderBy(asc(device.name), asc(device.id));
  for (const { authorizationId, ...d } of rows) {
    const list = byAuthorization.get(authorizationId) ?? [];
    list.push(d);
    byAuthorization.set(authorizationId, list);
  }
  return byAuthorization;
}

export async function authorizationExists(db: Db, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: fixedAuthorization.id })
    .from(fixedAuthorization)
    .where(eq(fixedAuthorization.id, id))
    .for('update');
  return row !== undefined;
}

/** Whether the staff member or department an authorisation is for exists. */
export async function objectExists(db: Db, form: Pick<FixedAuthorizationForm, 'objectType' | 'objectId'>) {
  const table = form.objectType === 'staff' ? staff : department;
  const [row] = await db.select({ id: table.id }).from(table).where(eq(table.id, form.objectId));
  return row !== undefined;
}

/** Of these device ids, the ones no device has. */
export async function unknownDevices(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: device.id })
    .from(device)
    .where(inArray(device.id, [...ids]));
  const known = new Set(rows.map((r) => r.id));
  return new Set(ids.filter((id) => !known.has(id)));
}

const columnsOf = (form: FixedAuthorizationForm) => ({
  staffId: form.objectType === 'staff' ? form.objectId : null,
  deptId: form.objectType === 'department' ? form.objectId : null,
  forever: form.forever,
  startTime: form.forever || !form.startTime ? null : new Date(form.startTime),
  endTime: form.forever || !form.endTime ? null : new Date(form.endTime),
  allDevice: form.allDevice,
});

async function writeDevices(db: Db, id: string, form: FixedAuthorizationForm): Promise<void> {
  await db.delete(fixedAuthorizationDevice).where(eq(fixedAuthorizationDevice.authorizationId, id));
  if (form.allDevice || form.deviceIds.length === 0) return;
  await db
    .insert(fixedAuthorizationDevice)
    .values(form.deviceIds.map((deviceId) => ({ authorizationId: id, deviceId })));
}

export async function insertAuthorization(
  db: Db,
  form: FixedAuthorizationForm,
  by: { staffId: string; staffName: string },
): Promise<string> {
  const [row] = await db
    .insert(fixedAuthorization)
    .values({ ...columnsOf(form), createdBy: by.staffId, createdByName: by.staffName })
    .returning({ id: fixedAuthorization.id });
  await writeDevices(db, row!.id, form);
  return row!.id;
}

export async function updateAuthorization(db: Db, id: string, form: FixedAuthorizationForm): Promise<void> {
  await db
    .update(fixedAuthorization)
    .set({ ...columnsOf(form), updatedAt: sql`now()` })
    .where(eq(fixedAuthorization.id, id));
  await writeDevices(db, id, form);
}

export async function deleteAuthorization(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .delete(fixedAuthorization)
    .where(eq(fixedAuthorization.id, id))
    .returning({ id: fixedAuthorization.id });
  return rows.length > 0;
}
