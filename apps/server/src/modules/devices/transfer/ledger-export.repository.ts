import type { DeviceSearch } from '@uiot/contracts';
import { and, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { AppError } from '../../../http/app-error.ts';
import { department, staff } from '../../org/org.schema.ts';
import { device, deviceType } from '../devices.schema.ts';
import {
  LEDGER_DEFAULT_SORT,
  LEDGER_SORT_KEYS,
  ledgerSearch,
  type SortKey,
  selectLedger,
} from '../ledger-query.ts';

/**
 * The ledger read for an export: the search and sort of the ledger's page query (every column of a
 * ledger row is a sort key), read in chunks by keyset so a large ledger never sits in memory.
 */

export interface LedgerOrder {
  key: SortKey;
  ascending: boolean;
}

/** The order of an export, as the page query reads `sort` / `ascending`; an unknown key is refused (400). */
export function ledgerOrder(sort: string | undefined, ascending: boolean | undefined): LedgerOrder {
  const keys: Readonly<Record<string, SortKey>> = LEDGER_SORT_KEYS;
  const by = sort || LEDGER_DEFAULT_SORT;
  const key = Object.hasOwn(keys, by) ? keys[by] : undefined;
  if (!key) throw AppError.invalid([{ path: 'sort', message: 'v.invalid' }]);
  return { key, ascending: sort ? (ascending ?? true) : true };
}

/** Where a chunk ended: the sort value as PostgreSQL writes it (exact for times and numbers) and the id. */
interface Position {
  key: string | null;
  id: string;
}

/**
 * The rows after a position, in the page query's order: ascending with empty values last, descending with
 * them first, then by id. Ascending on a column that is never empty is a row comparison, which the
 * indexes on (name, id) and (created_at, id) serve directly.
 */
function after(order: LedgerOrder, last: Position): SQL {
  const { expr, type, nullable } = order.key;
  const id = device.id;
  if (last.key === null) {
    const sameEmpty = sql`(${expr} is null and ${id} > ${last.id})`;
    return order.ascending ? sameEmpty : sql`(${sameEmpty} or ${expr} is not null)`;
  }
  const value = sql`cast(${last.key} as ${sql.raw(type)})`;
  if (order.ascending) {
    const beyond = sql`(${expr}, ${id}) > (${value}, ${last.id})`;
    return nullable ? sql`(${beyond} or ${expr} is null)` : beyond;
  }
  return sql`(${expr} < ${value} or (${expr} = ${value} and ${id} > ${last.id}))`;
}

function orderBy(order: LedgerOrder): SQL[] {
  const { expr } = order.key;
  return [
    order.ascending ? sql`${expr} asc nulls last` : sql`${expr} desc nulls first`,
    sql`${device.id} asc`,
  ];
}

/**
 * The ids of the next devices in order, with their sort value. Only the columns the order and the search
 * need are read here (PostgreSQL drops the joins nothing refers to), so the sort stays cheap.
 */
function positions(db: Db, order: LedgerOrder, where: SQL | undefined) {
  return selectLedger(
    db,
    { id: device.id, key: sql<string | null>`(${order.key.expr})::text` },
    where,
  ).orderBy(...orderBy(order));
}

/** The exported columns of the devices of a chunk. */
function records(db: Db, ids: string[]) {
  return selectLedger(
    db,
    {
      id: device.id,
      name: device.name,
      code: device.code,
      unitId: device.unitId,
      typeCode: deviceType.code,
      typeName: deviceType.name,
      category: device.category,
      imei: device.imei,
      imsi: device.imsi,
      iotType: device.iotType,
      netType: device.netType,
      lng: device.lng,
      lat: device.lat,
      addr: device.addr,
      deptName: department.name,
      staffName: staff.name,
      desc: device.description,
      devEUI: device.devEui,
      appEUI: device.appEui,
      kmInfo: device.kmInfo,
      line: device.line,
      track: device.track,
      door: device.door,
      regist: device.regist,
      registTime: device.registTime,
      createdAt: device.createdAt,
    },
    inArray(device.id, ids),
  );
}

export type LedgerRecord = Awaited<ReturnType<typeof records>>[number];

/** The records of a chunk in the order of its positions. */
async function chunkOf(db: Db, chunk: { id: string }[]): Promise<LedgerRecord[]> {
  if (chunk.length === 0) return [];
  const byId = new Map(
    (
      await records(
        db,
        chunk.map((p) => p.id),
      )
    ).map((r) => [r.id, r]),
  );
  return chunk.flatMap((p) => byId.get(p.id) ?? []);
}

export interface LedgerReadOptions {
  /** One page (1-based index) instead of every matching device. */
  page?: { index: number; size: number } | undefined;
  /** Rows read per query. */
  batchSize: number;
}

/** The matching devices chunk by chunk: one page, or all of them by keyset. */
export async function* ledgerBatches(
  db: Db,
  search: DeviceSearch,
  order: LedgerOrder,
  options: LedgerReadOptions,
): AsyncGenerator<LedgerRecord[]> {
  const where = ledgerSearch(search);
  if (options.page) {
    const { index, size } = options.page;
    yield await chunkOf(
      db,
      await positions(db, order, where)
        .limit(size)
        .offset((index - 1) * size),
    );
    return;
  }
  let last: Position | undefined;
  for (;;) {
    const chunk = await positions(db, order, last ? and(where, after(order, last)) : where).limit(
      options.batchSize,
    );
    if (chunk.length > 0) yield await chunkOf(db, chunk);
    if (chunk.length < options.batchSize) return;
    const end = chunk.at(-1)!;
    last = { key: end.key, id: end.id };
  }
}
