import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { rowsOf } from '../../../db/rows.ts';
import type { RuntimeUpdate } from './runtime-merge.ts';

/** A device history row to write. */
export interface HistoryInsert {
  deviceId: string;
  messageId: string;
  protocol: string;
  reportTime: number;
  receiveTime: number;
  raw: string;
  /** The decoded message, or null where it is read again from `raw` (a smaller row to write). */
  content: unknown;
}

/**
 * The statement writing history rows; a (device, message id) already recorded is skipped. It answers the
 * keys it inserted, or with `answer: 'count'` only their number (its command tag), which costs the embedded
 * database a third less.
 */
export function insertHistoryQuery(rows: readonly HistoryInsert[], answer: 'keys' | 'count' = 'keys'): SQL {
  const payload = JSON.stringify(
    rows.map((r) => ({
      device_id: r.deviceId,
      message_id: r.messageId,
      protocol: r.protocol,
      report_ms: r.reportTime,
      receive_ms: r.receiveTime,
      raw: r.raw,
      content: r.content,
    })),
  );
  return sql`
    insert into device_history (device_id, message_id, protocol, report_time, receive_time, raw, content)
    select r.device_id, r.message_id, r.protocol, to_timestamp(r.report_ms / 1000.0),
           to_timestamp(r.receive_ms / 1000.0), r.raw, r.content
    from jsonb_to_recordset(${payload}::jsonb) as r(
      device_id text, message_id text, protocol text, report_ms double precision,
      receive_ms double precision, raw text, content jsonb)
    on conflict (device_id, message_id) do nothing
    ${answer === 'keys' ? sql`returning device_id, message_id` : sql``}`;
}

/** The keys of the rows `insertHistoryQuery` inserted. */
export function insertedKeys(rows: readonly unknown[]): Set<string> {
  const inserted = new Set<string>();
  for (const row of rows as Array<{ device_id: string; message_id: string }>) {
    inserted.add(historyKey(row.device_id, row.message_id));
  }
  return inserted;
}

/**
 * Writes history rows in one statement; a (device, message id) already recorded is skipped. Returns the keys
 * actually inserted: only those are new and may change runtime data.
 */
export async function insertHistory(db: Db, rows: readonly HistoryInsert[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  return insertedKeys(rowsOf(await db.execute(insertHistoryQuery(rows))));
}

export function historyKey(deviceId: string, messageId: string): string {
  return `${deviceId}\u0000${messageId}`;
}

/**
 * The statement applying merged updates to runtime data (rows in device id order): absent fields keep their
 * value, every update marks the device online. An update older than what is stored (a late message) changes
 * nothing. Devices deleted meanwhile are skipped. It returns the ids of the devices whose runtime data changed.
 */
export function upsertRuntimeQuery(updates: readonly RuntimeUpdate[]): SQL {
  const payload = JSON.stringify(
    updates.map((u) => ({
      device_id: u.deviceId,
      lock_state: u.lockState ?? null,
      door_state: u.doorState ?? null,
      battery: u.battery ?? null,
      t: u.lastCollectTime,
      run_state: u.runState ?? null,
      rssi: u.rssi ?? null,
      dev_eui: u.devEui ?? null,
      app_id: u.chirpstackApplicationId ?? null,
      props: u.props ?? null,
      last_message_id: u.lastMessageId,
    })),
  );
  return sql`
    insert into device_runtime as rt (device_id, lock_state, door_state, online, battery, last_collect_time,
      offline_since, run_state, rssi, dev_eui, chirpstack_application_id, props, last_message_id, updated_at)
    select u.device_id, u.lock_state, u.door_state, true, u.battery, to_timestamp(u.t / 1000.0), null,
           u.run_state, u.rssi, u.dev_eui, u.app_id, u.props, u.last_message_id, now()
    from jsonb_to_recordset(${payload}::jsonb) as u(
      device_id text, lock_state text, door_state text, battery real, t double precision, run_state text,
      rssi real, dev_eui text, app_id text, props jsonb, last_message_id text)
    join device d on d.id = u.device_id
    order by u.device_id
    on conflict (device_id) do update set
      lock_state = coalesce(excluded.lock_state, rt.lock_state),
      door_state = coalesce(excluded.door_state, rt.door_state),
      online = true,
      battery = coalesce(excluded.battery, rt.battery),
      last_collect_time = excluded.last_collect_time,
      offline_since = null,
      run_state = coalesce(excluded.run_state, rt.run_state),
      rssi = coalesce(excluded.rssi, rt.rssi),
      dev_eui = coalesce(excluded.dev_eui, rt.dev_eui),
      chirpstack_application_id = coalesce(excluded.chirpstack_application_id, rt.chirpstack_application_id),
      props = case when excluded.props is null then rt.props
                   else coalesce(rt.props, '{}'::jsonb) || excluded.props end,
      last_message_id = excluded.last_message_id,
      updated_at = now()
    where rt.last_collect_time is null or excluded.last_collect_time >= rt.last_collect_time
    returning rt.device_id`;
}

/** The devices whose runtime data `upsertRuntimeQuery` changed. */
export function changedDevices(rows: readonly unknown[]): Set<string> {
  return new Set((rows as Array<{ device_id: string }>).map((r) => r.device_id));
}

/** Applies merged updates to runtime data (see upsertRuntimeQuery); returns the devices it changed. */
export async function upsertRuntime(db: Db, updates: readonly RuntimeUpdate[]): Promise<Set<string>> {
  if (updates.length === 0) return new Set();
  return changedDevices(rowsOf(await db.execute(upsertRuntimeQuery(updates))));
}

/** A device as ingest knows it: found by code (station checked), devEUI or IMEI; registered ones only. */
export interface IngestDevice {
  deviceId: string;
  stationId: string;
  code: string | null;
  devEui: string | null;
}

/** How ingest may name a device. */
export type DeviceKey = 'code' | 'devEui' | 'imei';

/**
 * The registered devices with these codes, devEUIs (upper case) or IMEIs, by that value (each is unique in
 * the ledger); values naming none are absent.
 */
export async function findRegisteredDevices(
  db: Db,
  by: DeviceKey,
  values: readonly string[],
): Promise<Map<string, IngestDevice>> {
  const found = new Map<string, IngestDevice>();
  if (values.length === 0) return found;
  const column = by === 'code' ? sql`code` : by === 'devEui' ? sql`dev_eui` : sql`imei`;
  const result = await db.execute(sql`
    select id, station_id, code, dev_eui, ${column} as key from device
    where ${column} in ${values} and regist = true`);
  for (const row of rowsOf<{
    id: string;
    station_id: string;
    code: string | null;
    dev_eui: string | null;
    key: string;
  }>(result)) {
    found.set(row.key, { deviceId: row.id, stationId: row.station_id, code: row.code, devEui: row.dev_eui });
  }
  return found;
}
