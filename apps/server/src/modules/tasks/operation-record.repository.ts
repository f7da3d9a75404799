import type { CommandState, OperationRecordRow, Page, PageQuery } from '@uiot/contracts';
import { and, desc, eq, gte, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { countUpTo, type KeysetPosition, olderThan, positionTime } from '../../db/keyset.ts';
import { containsText, paged } from '../../db/paging.ts';
import { operationRecord } from './tasks.schema.ts';

/** What a record's live photo is attached to in the file store. */
export const PHOTO_REF = 'operationRecord';

/** A search over the records, its time range already checked. */
export interface RecordSearch {
  from?: Date | undefined;
  to?: Date | undefined;
  deviceId?: string | undefined;
  taskId?: string | undefined;
  keyword?: string | undefined;
  action?: OperationRecordRow['action'] | undefined;
  result?: OperationRecordRow['result'] | undefined;
  source?: OperationRecordRow['source'] | undefined;
}

/** A record to store: the row's fields without its id, with times as dates. */
export type NewRecord = Omit<OperationRecordRow, 'id' | 'operateTime' | 'uploadTime'> & {
  operateTime: Date;
  uploadTime?: Date | null;
  clientRecordId?: string | null;
};

const columns = {
  id: operationRecord.id,
  deviceId: operationRecord.deviceId,
  deviceName: operationRecord.deviceName,
  deviceCode: operationRecord.deviceCode,
  staffId: operationRecord.staffId,
  staffName: operationRecord.staffName,
  keyId: operationRecord.keyId,
  keyName: operationRecord.keyName,
  lockCode: operationRecord.lockCode,
  taskId: operationRecord.taskId,
  taskName: operationRecord.taskName,
  authorizationId: operationRecord.authorizationId,
  action: operationRecord.action,
  opMethod: operationRecord.opMethod,
  source: operationRecord.source,
  result: operationRecord.result,
  refusal: operationRecord.refusal,
  commandId: operationRecord.commandId,
  commandState: operationRecord.commandState,
  covered: operationRecord.covered,
  photoFileId: operationRecord.photoFileId,
  operateTime: operationRecord.operateTime,
  uploadTime: operationRecord.uploadTime,
  stationId: operationRecord.stationId,
};

const sortable = {
  operateTime: operationRecord.operateTime,
  deviceName: operationRecord.deviceName,
  staffName: operationRecord.staffName,
  result: operationRecord.result,
};

type Selected = Omit<OperationRecordRow, 'operateTime' | 'uploadTime'> & {
  operateTime: Date;
  uploadTime: Date | null;
};

const toRow = (r: Selected): OperationRecordRow => ({
  ...r,
  operateTime: r.operateTime.toISOString(),
  uploadTime: r.uploadTime ? r.uploadTime.toISOString() : null,
});

function whereOf(search: RecordSearch): SQL | undefined {
  const { keyword } = search;
  return and(
    search.from ? gte(operationRecord.operateTime, search.from) : undefined,
    search.to ? lte(operationRecord.operateTime, search.to) : undefined,
    search.deviceId ? eq(operationRecord.deviceId, search.deviceId) : undefined,
    search.taskId ? eq(operationRecord.taskId, search.taskId) : undefined,
    search.action ? eq(operationRecord.action, search.action) : undefined,
    search.result ? eq(operationRecord.result, search.result) : undefined,
    search.source ? eq(operationRecord.source, search.source) : undefined,
    keyword
      ? or(
          containsText(operationRecord.deviceName, keyword),
          containsText(operationRecord.deviceCode, keyword),
          containsText(operationRecord.staffName, keyword),
          containsText(operationRecord.taskName, keyword),
        )
      : undefined,
  );
}

/** Stores a record keyed by its `clientRecordId`, once: null when one with that key is stored already. */
export async function insertRecordOnce(db: Db, record: NewRecord): Promise<OperationRecordRow | null> {
  const [row] = await db.insert(operationRecord).values(record).onConflictDoNothing().returning(columns);
  return row ? toRow(row) : null;
}

/**
 * Whether an opening of the device between `from` and `to` is recorded already and not known to have failed:
 * a remote opening that was allowed and sent, or a client's record of one, which was decided when uploaded
 * (allowed, or recorded as uncovered with its alarm). The opening the lock then reports is that one.
 */
export async function recordedOpeningBetween(
  db: Db,
  deviceId: string,
  from: Date,
  to: Date,
): Promise<boolean> {
  const [row] = await db
    .select({ id: operationRecord.id })
    .from(operationRecord)
    .where(
      and(
        eq(operationRecord.deviceId, deviceId),
        eq(operationRecord.action, 'open'),
        inArray(operationRecord.result, ['sent', 'succeeded']),
        gte(operationRecord.operateTime, from),
        lte(operationRecord.operateTime, to),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function insertRecord(db: Db, record: NewRecord): Promise<OperationRecordRow> {
  const [row] = await db.insert(operationRecord).values(record).returning(columns);
  return toRow(row!);
}

/** Ties a remote operation's record to its command, or ends it as failed when the command was never made. */
export async function setCommand(
  db: Db,
  recordId: string,
  commandId: string | null,
  result: 'failed' | null,
): Promise<OperationRecordRow[]> {
  const rows = await db
    .update(operationRecord)
    .set({ commandId, ...(result ? { result } : {}), updatedAt: sql`now()` })
    .where(eq(operationRecord.id, recordId))
    .returning(columns);
  return rows.map(toRow);
}

/**
 * A remote operation's command moved on: its state, and the result once it is final (`result` null: still
 * under way). Answers the records it changed.
 */
export async function updateByCommand(
  db: Db,
  commandId: string,
  state: CommandState,
  result: 'succeeded' | 'failed' | null,
): Promise<OperationRecordRow[]> {
  const rows = await db
    .update(operationRecord)
    .set({
      commandState: state,
      ...(result ? { result } : {}),
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(operationRecord.commandId, commandId),
        // A final result is never taken back by a late answer.
        eq(operationRecord.result, 'sent'),
      ),
    )
    .returning(columns);
  return rows.map(toRow);
}

export async function recordsByIds(db: Db, ids: readonly string[]): Promise<OperationRecordRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(columns)
    .from(operationRecord)
    .where(inArray(operationRecord.id, [...ids]));
  return rows.map(toRow);
}

export async function queryRecords(
  db: Db,
  search: RecordSearch,
  page: PageQuery,
): Promise<Page<OperationRecordRow>> {
  const query = db.select(columns).from(operationRecord).where(whereOf(search)).$dynamic();
  const result = await paged(db, query, sortable, page, {
    defaultSort: { by: 'operateTime', ascending: false },
    tieBreaker: operationRecord.id,
  });
  return { total: result.total, rows: result.rows.map(toRow) };
}

/** How many records the search finds, counted no further than `cap`. */
export function countRecordsUpTo(db: Db, search: RecordSearch, cap: number): Promise<number> {
  const rows = db
    .select({ one: sql`1`.as('one') })
    .from(operationRecord)
    .where(whereOf(search))
    .$dynamic();
  return countUpTo(db, rows, cap);
}

/** Up to `limit` records of the search after `after`, newest first, each with its position. */
export async function recordsAfter(
  db: Db,
  search: RecordSearch,
  after: KeysetPosition<string> | null,
  limit: number,
): Promise<Array<{ row: OperationRecordRow; position: KeysetPosition<string> }>> {
  const found = await db
    .select({ ...columns, timeText: positionTime(operationRecord.operateTime) })
    .from(operationRecord)
    .where(and(whereOf(search), olderThan(operationRecord.operateTime, operationRecord.id, after)))
    .orderBy(desc(operationRecord.operateTime), desc(operationRecord.id))
    .limit(limit);
  return found.map(({ timeText, ...r }) => ({ row: toRow(r), position: { time: timeText, id: r.id } }));
}
