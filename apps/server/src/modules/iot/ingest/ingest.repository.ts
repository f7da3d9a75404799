import type { RunState } from '@uiot/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { rowsOf } from '../../../db/rows.ts';
import type { RunStateHints } from '../run-state.ts';
import type { RuntimeUpdate } from './runtime-merge.ts';

/** A device history row to write. */
export interface HistoryInsert {
  deviceId: string;
  /** The device's `seq`. */
  deviceSeq: number;
  messageId: string;
  protocol: string;
  reportTime: number;
  receiveTime: number;
  raw: string;
  /** The decoded message, or null where it is read again from `raw` (a smaller row to write). */
  content: unknown;
}

/** The unique key of a device's message in its history: a message stored again violates it. */
export const HISTORY_MESSAGE_KEY = 'device_history_message_key';

/**
 * The statement writing history rows. `keys`: a (device, message id) already recorded is skipped, and it
 * answers the keys it inserted. `allNew`: the rows are taken to be new and it answers nothing; a message
 * already recorded fails the statement (a unique violation of HISTORY_MESSAGE_KEY), which costs the embedded
 * database a quarter less per row than skipping (no speculative insertion, no second probe of the key).
 */
export function insertHistoryQuery(rows: readonly HistoryInsert[], mode: 'keys' | 'allNew' = 'keys'): SQL {
  const payload = JSON.stringify(
    rows.map((r) => ({
      device_id: r.deviceId,
      device_seq: r.deviceSeq,
      message_id: r.messageId,
      protocol: r.protocol,
      report_ms: r.reportTime,
      receive_ms: r.receiveTime,
      raw: r.raw,
      content: r.content,
    })),
  );
  return sql`
    insert into device_history (device_id, device_seq, message_id, protocol, report_time, receive_time, raw, content)
    select r.device_id, r.device_seq, r.message_id, r.protocol, to_timestamp(r.report_ms / 1000.0),
           to_timestamp(r.receive_ms / 1000.0), r.raw, r.content
    from jsonb_to_recordset(${payload}::jsonb) as r(
      device_id text, device_seq integer, message_id text, protocol text, report_ms double precision,
      receive_ms double precision, raw text, content jsonb)
    ${mode === 'keys' ? sql`on conflict (device_seq, message_id) do nothing returning device_id, message_id` : sql``}`;
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
 * The statement recording the batch's `damage` reports (a report already recorded is skipped): it runs
 * before the runtime upsert, which counts them into the devices' damage values (`recountDamageQuery` after
 * it, for a late message's).
 */
export function insertDamageReportsQuery(updates: readonly RuntimeUpdate[]): SQL | null {
  const rows = updates.flatMap((u) =>
    (u.damageReports ?? []).map((d) => ({ device_id: u.deviceId, message_id: d.messageId, at_ms: d.at })),
  );
  if (rows.length === 0) return null;
  return sql`
    insert into device_damage_report (device_id, message_id, reported_at)
    select r.device_id, r.message_id, to_timestamp(r.at_ms / 1000.0)
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(device_id text, message_id text, at_ms double precision)
    join device d on d.id = r.device_id
    on conflict (device_id, message_id) do nothing`;
}

/**
 * The statement counting again, after the runtime upsert, the damage value of the devices with damage
 * reports in the batch: the upsert counts them only where it changed the row, and a late message (older than
 * the stored runtime data) changes nothing, yet its damage report counts. Answers the devices whose value it
 * changed (their run state is worked out again); null when the batch has no damage reports.
 */
export function recountDamageQuery(updates: readonly RuntimeUpdate[]): SQL | null {
  const ids = updates.filter((u) => u.damageReports !== undefined).map((u) => u.deviceId);
  if (ids.length === 0) return null;
  return sql`
    update device_runtime as rt
    set damage_count = c.n, damage_recount_at = c.next_at
    from (select d.device_id, count(x.device_id)::int as n,
                 min(x.reported_at) + interval '30 days' as next_at
          from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) as d(device_id)
          left join device_damage_report x
            on x.device_id = d.device_id and x.reported_at > now() - interval '30 days'
          group by d.device_id) as c
    where rt.device_id = c.device_id and rt.damage_count is distinct from c.n
    returning rt.device_id`;
}

/**
 * The statement applying merged updates to runtime data (rows in device id order): absent fields keep their
 * value, every update marks the device online. An update older than what is stored (a late message) changes
 * nothing. Devices deleted meanwhile are skipped. The lock's run state goes to `reported_run_state`; the
 * door-open time starts with the report that first says open; a device with damage reports in the batch has
 * its damage value counted again. It answers, in one row, the devices it changed and those of them whose run
 * state needs working out again (`hints`; read with `writtenRuntime`); the shown `run_state` is left for
 * `setRunStatesQuery`. With `newerOnly`, an update whose time equals the stored one changes nothing either
 * (the deferred write of repeats: another report of the same millisecond written since is not older).
 */
export function upsertRuntimeQuery(
  updates: readonly RuntimeUpdate[],
  hints: RunStateHints,
  newerOnly = false,
): SQL {
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
      damage: u.damageReports !== undefined,
    })),
  );
  // Nearly every device of a batch has its row already: a plain UPDATE changes it (an ON CONFLICT update
  // costs an index probe, a row lock and its log record more per row). Only devices without a row take the
  // INSERT, whose ON CONFLICT arm applies the same changes should another writer insert the row meanwhile.
  // (A device whose stored data is newer must not reach the INSERT: its conflict arm would lock the row even
  // when it changes nothing, and two writers could then wait on each other.)
  return sql`
    with u as (
      select u.device_id, u.lock_state, u.door_state, u.battery,
             to_timestamp(u.t / 1000.0) as last_collect_time, u.run_state as reported_run_state,
             case when u.door_state = 'open' then to_timestamp(u.t / 1000.0) end as door_open_since,
             case when u.damage then (select count(*)::int from device_damage_report x
                                      where x.device_id = u.device_id
                                        and x.reported_at > now() - interval '30 days') else 0 end as damage_count,
             case when u.damage then (select min(x.reported_at) + interval '30 days' from device_damage_report x
                                      where x.device_id = u.device_id
                                        and x.reported_at > now() - interval '30 days') end as damage_recount_at,
             u.rssi, u.dev_eui, u.app_id as chirpstack_application_id, u.props, u.last_message_id
      from jsonb_to_recordset(${payload}::jsonb) as u(
        device_id text, lock_state text, door_state text, battery real, t double precision, run_state text,
        rssi real, dev_eui text, app_id text, props jsonb, last_message_id text, damage boolean)
    ),
    updated as (
      update device_runtime as rt set ${runtimeChanges('u')}
      from u
      where rt.device_id = u.device_id and ${isNotOlder('u', newerOnly)}
      returning rt.device_id, ${runStateCheck(hints)} as state_check
    ),
    inserted as (
      insert into device_runtime as rt (device_id, lock_state, door_state, online, battery, last_collect_time,
        offline_since, run_state, reported_run_state, door_open_since, damage_count, damage_recount_at, rssi,
        dev_eui, chirpstack_application_id, props, last_message_id, updated_at)
      select u.device_id, u.lock_state, u.door_state, true, u.battery, u.last_collect_time, null,
             u.reported_run_state, u.reported_run_state, u.door_open_since, u.damage_count, u.damage_recount_at,
             u.rssi, u.dev_eui, u.chirpstack_application_id, u.props, u.last_message_id, now()
      from u
      join device d on d.id = u.device_id
      where not exists (select 1 from device_runtime r where r.device_id = u.device_id)
      order by u.device_id
      on conflict (device_id) do update set ${runtimeChanges('excluded')}
      where ${isNotOlder('excluded', newerOnly)}
      returning rt.device_id, ${runStateCheck(hints)} as state_check
    )
    select coalesce(array_agg(w.device_id), '{}') as changed,
           coalesce(array_agg(w.device_id) filter (where w.state_check), '{}') as to_check
    from (select device_id, state_check from updated
          union all
          select device_id, state_check from inserted) as w`;
}

/**
 * What an update does to a device's stored runtime row (`rt`), from the batch's row for it (`u` in the
 * UPDATE, `excluded` in the INSERT's conflict arm; both have the table's column names).
 */
function runtimeChanges(source: 'u' | 'excluded'): SQL {
  const x = sql.raw(source);
  return sql`
      lock_state = coalesce(${x}.lock_state, rt.lock_state),
      door_state = coalesce(${x}.door_state, rt.door_state),
      online = true,
      battery = coalesce(${x}.battery, rt.battery),
      last_collect_time = ${x}.last_collect_time,
      offline_since = null,
      reported_run_state = coalesce(${x}.reported_run_state, rt.reported_run_state),
      door_open_since = case ${x}.door_state
                          when 'open' then case when rt.door_state = 'open'
                                                then coalesce(rt.door_open_since, ${x}.door_open_since)
                                                else ${x}.door_open_since end
                          when 'closed' then null
                          else rt.door_open_since end,
      damage_count = case when ${x}.damage_recount_at is null then rt.damage_count
                          else ${x}.damage_count end,
      damage_recount_at = coalesce(${x}.damage_recount_at, rt.damage_recount_at),
      rssi = coalesce(${x}.rssi, rt.rssi),
      dev_eui = coalesce(${x}.dev_eui, rt.dev_eui),
      chirpstack_application_id = coalesce(${x}.chirpstack_application_id, rt.chirpstack_application_id),
      props = case when ${x}.props is null then rt.props
                   else coalesce(rt.props, '{}'::jsonb) || ${x}.props end,
      last_message_id = ${x}.last_message_id,
      updated_at = now()`;
}

/** A late message (older than the stored runtime data) changes nothing; with `newerOnly`, one as old neither. */
function isNotOlder(source: 'u' | 'excluded', newerOnly = false): SQL {
  const x = sql.raw(source);
  return newerOnly
    ? sql`(rt.last_collect_time is null or ${x}.last_collect_time > rt.last_collect_time)`
    : sql`(rt.last_collect_time is null or ${x}.last_collect_time >= rt.last_collect_time)`;
}

/**
 * Whether a written row's run state may need working out again (see `RunStateHints`). The hints are
 * parameters: the statement's text stays the same for every batch (it is prepared once by name).
 */
function runStateCheck(hints: RunStateHints): SQL {
  return sql`coalesce(
      rt.run_state is distinct from rt.reported_run_state
      or (${hints.lowPowerUpTo}::float8 > 0 and rt.battery <= ${hints.lowPowerUpTo}::float8)
      or (${hints.damageLevels}::boolean and rt.damage_count > 0)
      or (${hints.doorOpenLimitMs}::float8 > 0
          and rt.door_open_since < now() - make_interval(secs => ${hints.doorOpenLimitMs / 1000}::float8)),
      false)`;
}

/**
 * What `upsertRuntimeQuery` answered: every device whose runtime data changed, and those of them whose run
 * state needs working out again. The statement answers them as two arrays in one row, which costs the
 * embedded database far less than a row per device.
 */
export function writtenRuntime(rows: readonly unknown[]): { changed: Set<string>; toCheck: string[] } {
  const [row] = rows as Array<{ changed: string[] | null; to_check: string[] | null }>;
  return { changed: new Set(row?.changed ?? []), toCheck: [...(row?.to_check ?? [])] };
}

/** A device's runtime row as the run state reads it (answered by the upsert and the run-state pass). */
export interface RuntimeStateRow {
  deviceId: string;
  /** The run state stored as shown (before it is worked out again). */
  runState: RunState | null;
  reportedRunState: RunState | null;
  battery: number | null;
  doorOpenSince: number | null;
  damageCount: number;
  lastMessageId: string | null;
}

/**
 * The columns of a `RuntimeStateRow` (table alias `rt`); the door-open time as epoch milliseconds, which
 * costs less to read than a timestamp for every row of a batch.
 */
export const RUNTIME_STATE_COLUMNS = sql.raw(
  'rt.device_id, rt.run_state, rt.reported_run_state, rt.battery, ' +
    '(extract(epoch from rt.door_open_since) * 1000)::float8 as door_open_ms, rt.damage_count, rt.last_message_id',
);

type StateRowRecord = {
  device_id: string;
  run_state: string | null;
  reported_run_state: string | null;
  battery: number | string | null;
  door_open_ms: number | string | null;
  damage_count: number | string;
  last_message_id: string | null;
};

/** Reads rows answered in the shape of `RuntimeStateRow` (snake case, dates and numbers as the driver gives them). */
export function runtimeStateRows(rows: readonly unknown[]): RuntimeStateRow[] {
  return (rows as StateRowRecord[]).map((r) => ({
    deviceId: r.device_id,
    runState: r.run_state as RunState | null,
    reportedRunState: r.reported_run_state as RunState | null,
    battery: r.battery === null ? null : Number(r.battery),
    doorOpenSince: r.door_open_ms === null ? null : Number(r.door_open_ms),
    damageCount: Number(r.damage_count),
    lastMessageId: r.last_message_id,
  }));
}

/**
 * Stores worked-out run states. A row another write changed meanwhile (its last message is no longer the
 * one the state was worked out from) is left for that write. Answers the devices it changed, with station.
 */
export function setRunStatesQuery(
  states: ReadonlyArray<{ deviceId: string; runState: RunState | null; lastMessageId: string | null }>,
): SQL {
  const payload = JSON.stringify(
    states.map((s) => ({ device_id: s.deviceId, run_state: s.runState, last_message_id: s.lastMessageId })),
  );
  return sql`
    update device_runtime r set run_state = f.run_state
    from jsonb_to_recordset(${payload}::jsonb) as f(device_id text, run_state text, last_message_id text),
         device d
    where r.device_id = f.device_id and d.id = r.device_id
      and r.last_message_id is not distinct from f.last_message_id
      and r.run_state is distinct from f.run_state
    returning r.device_id, d.station_id, r.run_state`;
}

/**
 * Records the damage reports of `updates`, then applies those of them in `write` (all by default; see
 * `RepeatReports` for the others) and counts the damage values again (see the three queries).
 */
export async function upsertRuntime(
  db: Db,
  updates: readonly RuntimeUpdate[],
  hints: RunStateHints,
  write: readonly RuntimeUpdate[] = updates,
): Promise<{ changed: Set<string>; toCheck: string[] }> {
  if (updates.length === 0) return { changed: new Set(), toCheck: [] };
  const damage = insertDamageReportsQuery(updates);
  if (damage) await db.execute(damage);
  const written =
    write.length > 0
      ? writtenRuntime(rowsOf(await db.execute(upsertRuntimeQuery(write, hints))))
      : { changed: new Set<string>(), toCheck: [] };
  const recount = recountDamageQuery(updates);
  if (recount) written.toCheck.push(...recountedDevices(rowsOf(await db.execute(recount)), written.toCheck));
  return written;
}

/** The devices `recountDamageQuery` changed that are not among `toCheck` yet. */
export function recountedDevices(rows: readonly unknown[], toCheck: readonly string[]): string[] {
  const known = new Set(toCheck);
  return (rows as Array<{ device_id: string }>).map((r) => r.device_id).filter((id) => !known.has(id));
}

/** The runtime rows of these devices as the run state reads them. */
export async function runtimeStatesOf(db: Db, deviceIds: readonly string[]): Promise<RuntimeStateRow[]> {
  if (deviceIds.length === 0) return [];
  const ids = JSON.stringify(deviceIds);
  return runtimeStateRows(
    rowsOf(
      await db.execute(sql`
        select ${RUNTIME_STATE_COLUMNS} from device_runtime rt
        where rt.device_id in (select jsonb_array_elements_text(${ids}::jsonb))`),
    ),
  );
}

/** A device as ingest knows it: found by code (station checked), devEUI or IMEI; registered ones only. */
export interface IngestDevice {
  deviceId: string;
  /** Its number, the key of its history. */
  seq: number;
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
    select id, seq, station_id, code, dev_eui, ${column} as key from device
    where ${column} in ${values} and regist = true`);
  for (const row of rowsOf<{
    id: string;
    seq: number;
    station_id: string;
    code: string | null;
    dev_eui: string | null;
    key: string;
  }>(result)) {
    found.set(row.key, {
      deviceId: row.id,
      seq: row.seq,
      stationId: row.station_id,
      code: row.code,
      devEui: row.dev_eui,
    });
  }
  return found;
}
