import type {
  ClientRegistration,
  ClientRow,
  ClientState,
  OpenRefusal,
  Page,
  PageQuery,
} from '@uiot/contracts';
import { and, asc, eq, gt, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { containsText, paged } from '../../db/paging.ts';
import { device, lockCode, lockKey } from '../devices/devices.schema.ts';
import { appClient, lockTask, lockTaskItem, lockTaskOperator } from './tasks.schema.ts';

export type StoredClient = typeof appClient.$inferSelect;

const iso = (date: Date | null) => date?.toISOString() ?? null;

const toRow = (c: StoredClient): ClientRow => ({
  id: c.id,
  clientId: c.clientId,
  clientType: c.clientType,
  name: c.name,
  telNo: c.telNo,
  registCode: c.registCode,
  state: c.state,
  regist: c.state === 'passed',
  requestTime: c.requestTime.toISOString(),
  registTime: iso(c.registTime),
  reviewerName: c.reviewerName,
  resultDesc: c.resultDesc,
  staffId: c.staffId,
  staffName: c.staffName,
  sendTime: iso(c.sendTime),
});

export async function clientByClientId(db: Db, clientId: string): Promise<StoredClient | undefined> {
  const [row] = await db.select().from(appClient).where(eq(appClient.clientId, clientId));
  return row;
}

/**
 * Stores a registration: a new client waits for review; one registering again waits again, unless it was
 * passed and shows the same code (the same installation starting over).
 */
export async function upsertRegistration(db: Db, form: ClientRegistration, now: Date): Promise<ClientState> {
  const fields = {
    clientType: form.clientType,
    name: form.name,
    telNo: form.telNo || null,
    registCode: form.registCode,
    requestTime: now,
  };
  const [row] = await db
    .insert(appClient)
    .values({ clientId: form.clientId, ...fields, state: 'pending' })
    .onConflictDoUpdate({
      target: appClient.clientId,
      set: {
        ...fields,
        state: sql`case when ${appClient.state} = 'passed' and ${appClient.registCode} = ${form.registCode}
          then 'passed' else 'pending' end`,
        updatedAt: now,
      },
    })
    .returning({ state: appClient.state });
  return row!.state;
}

export async function queryClients(
  db: Db,
  search: { keyword?: string | undefined; state?: ClientState | undefined },
  page: PageQuery,
): Promise<Page<ClientRow>> {
  const where: SQL | undefined = and(
    search.state ? eq(appClient.state, search.state) : undefined,
    search.keyword
      ? or(
          containsText(appClient.name, search.keyword),
          containsText(appClient.clientId, search.keyword),
          containsText(appClient.staffName, search.keyword),
        )
      : undefined,
  );
  const query = db.select().from(appClient).where(where).$dynamic();
  const result = await paged(
    db,
    query,
    {
      // Those waiting for review first, then the newest requests.
      requestTime: appClient.requestTime,
      name: appClient.name,
      state: appClient.state,
      pending: sql`(${appClient.state} <> 'pending')`,
    },
    page,
    { defaultSort: { by: 'pending', ascending: true }, tieBreaker: appClient.id },
  );
  return { total: result.total, rows: result.rows.map(toRow) };
}

export async function reviewClientRow(
  db: Db,
  id: string,
  review: {
    state: ClientState;
    resultDesc: string | null;
    reviewerId: string;
    reviewerName: string;
    at: Date;
  },
): Promise<boolean> {
  const rows = await db
    .update(appClient)
    .set({
      state: review.state,
      resultDesc: review.resultDesc,
      reviewerId: review.reviewerId,
      reviewerName: review.reviewerName,
      registTime: review.state === 'passed' ? review.at : null,
      updatedAt: review.at,
    })
    .where(eq(appClient.id, id))
    .returning({ id: appClient.id });
  return rows.length > 0;
}

export async function deleteClientRow(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(appClient).where(eq(appClient.id, id)).returning({ id: appClient.id });
  return rows.length > 0;
}

export async function bindClient(
  db: Db,
  id: string,
  values: { staffId?: string; staffName?: string; sendTime?: Date },
): Promise<void> {
  await db
    .update(appClient)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(appClient.id, id));
}

export async function keyById(db: Db, keyId: string) {
  const [row] = await db
    .select({ id: lockKey.id, name: lockKey.name, staffId: lockKey.staffId })
    .from(lockKey)
    .where(eq(lockKey.id, keyId));
  return row;
}

/**
 * The staff member's tasks a key may take now: approved and started (or, `preStore`, approved and not yet
 * started), not ended, with their items for this key or for any key, in start order.
 */
export async function downloadableItems(
  db: Db,
  request: { staffId: string; keyId: string; now: Date; preStore: boolean },
) {
  return db
    .select({
      taskId: lockTask.id,
      taskName: lockTask.name,
      startTime: lockTask.startTime,
      endTime: lockTask.endTime,
      itemId: lockTaskItem.id,
      deviceId: device.id,
      deviceName: device.name,
      deviceCode: device.code,
    })
    .from(lockTask)
    .innerJoin(lockTaskOperator, eq(lockTaskOperator.taskId, lockTask.id))
    .innerJoin(lockTaskItem, eq(lockTaskItem.taskId, lockTask.id))
    .innerJoin(device, eq(device.id, lockTaskItem.deviceId))
    .where(
      and(
        eq(lockTaskOperator.staffId, request.staffId),
        inArray(lockTask.state, request.preStore ? ['Execute', 'None'] : ['Execute']),
        gt(lockTask.endTime, request.now),
        or(isNull(lockTaskItem.keyId), eq(lockTaskItem.keyId, request.keyId)),
      ),
    )
    .orderBy(asc(lockTask.startTime), asc(lockTask.id), asc(lockTaskItem.sortIndex), asc(lockTaskItem.id));
}

/** The lock codes in effect of the devices, by device. */
export async function lockCodesOf(db: Db, deviceIds: readonly string[]) {
  if (deviceIds.length === 0) return new Map<string, never[]>();
  const rows = await db
    .select({
      deviceId: lockCode.deviceId,
      rfidCode: lockCode.rfidCode,
      rfidType: lockCode.rfidType,
      dnbs: lockCode.dnbs,
      blueAddr: lockCode.blueAddr,
    })
    .from(lockCode)
    .where(and(inArray(lockCode.deviceId, [...deviceIds]), eq(lockCode.effect, true)));
  const byDevice = new Map<string, Omit<(typeof rows)[number], 'deviceId'>[]>();
  for (const { deviceId, ...code } of rows) byDevice.set(deviceId, [...(byDevice.get(deviceId) ?? []), code]);
  return byDevice;
}

/** Records a download's decisions: the items sent get their toKeyTime, the others the refusal's reason. */
export async function recordDownload(
  db: Db,
  decided: { sent: readonly string[]; refused: readonly { itemId: string; refusal: OpenRefusal }[] },
  at: Date,
): Promise<void> {
  if (decided.sent.length > 0) {
    await db
      .update(lockTaskItem)
      .set({ toKeyTime: at, downloadRefusal: null })
      .where(inArray(lockTaskItem.id, [...decided.sent]));
  }
  for (const { itemId, refusal } of decided.refused) {
    await db.update(lockTaskItem).set({ downloadRefusal: refusal }).where(eq(lockTaskItem.id, itemId));
  }
}

/** The task's name, and whether it has an item for the device. */
export async function taskOfUpload(db: Db, taskId: string) {
  const [row] = await db
    .select({ id: lockTask.id, name: lockTask.name })
    .from(lockTask)
    .where(eq(lockTask.id, taskId));
  return row;
}
