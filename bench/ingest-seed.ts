/**
 * The ingest benchmark's database: migrated, with the built-in accounts, one unit, device types whose
 * heartbeat is so long that no device goes offline during a run, N registered devices (spread over the
 * types) with codes and broker credentials, and optionally warn rules spread over the types.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.ts';
import { rowsOf } from '../apps/server/src/db/rows.ts';
import { DEFAULT_STATION } from '../apps/server/src/lib/station.ts';
import { DeviceCredentials } from '../apps/server/src/modules/iot/device-credentials.ts';
import { ensureBuiltInAccounts } from '../apps/server/src/modules/org/admin-account.ts';

export interface SeededDevice {
  deviceId: string;
  /** The device's number, the key of its history. */
  seq: number;
  code: string;
  /** The broker password of the device; never logged. */
  secret: string;
}

/** Codes are `B` + a zero-padded index, so that device index and code map both ways. */
export function benchDeviceCode(index: number): string {
  return `B${String(index).padStart(6, '0')}`;
}

/** The warn rules of a run: `rules` in all, spread evenly over `types` device types. */
export interface BenchRules {
  types: number;
  rules: number;
}

/** The battery level below which the one raising rule of each type holds (the fleet's fault reports are below). */
export const BENCH_LOW_BATTERY = 20;

export async function seedIngestDatabase(
  database: Database,
  devices: number,
  adminPassword: string,
  rules: BenchRules = { types: 1, rules: 0 },
): Promise<SeededDevice[]> {
  await database.migrate();
  await ensureBuiltInAccounts(database.db, adminPassword);
  const station = DEFAULT_STATION.id;
  const types = Math.max(1, rules.types);
  await database.db.execute(sql`
    insert into operation_unit (id, name, station_id) values ('bench-unit', 'Bench unit', ${station})`);
  await database.db.execute(sql`
    insert into device_type (id, name, code, category, report_interval, heartbeat_interval)
    select 'bench-type-' || t, 'Bench lock ' || t, 'BENCH' || t, 'IoT', 86400, 86400
    from generate_series(0, ${types - 1}) t`);
  await database.db.execute(sql`
    insert into device (name, code, unit_id, type_id, category, station_id, regist, regist_time)
    select 'Bench lock ' || g, 'B' || lpad(g::text, 6, '0'), 'bench-unit', 'bench-type-' || (g % ${types}),
           'IoT', ${station}, true, now()
    from generate_series(0, ${devices - 1}) g`);
  if (rules.rules > 0) await seedRules(database, types, rules.rules);
  const rows = rowsOf<{ id: string; seq: number; code: string }>(
    await database.db.execute(sql`select id, seq, code from device where unit_id = 'bench-unit'`),
  );
  const byCode = new Map(rows.map((r) => [r.code, r]));
  const credentials = new DeviceCredentials(database.db);
  const seeded: SeededDevice[] = [];
  await database.db.transaction(async (tx) => {
    for (let index = 0; index < devices; index++) {
      const code = benchDeviceCode(index);
      const found = byCode.get(code);
      if (!found) throw new Error(`seeded device ${code} not found`);
      const { credential } = await credentials.issue(tx, found.id);
      if (!credential) throw new Error(`no credential issued to ${code}`);
      seeded.push({ deviceId: found.id, seq: Number(found.seq), code, secret: credential.secret });
    }
  });
  return seeded;
}

/**
 * `count` Instant rules spread over the types. Per type the first raises on a low battery (and clears when
 * the battery is back); the others test a signal strength no lock reports, so they are evaluated on every
 * report and never raise: the cost of many rules without an alarm storm.
 */
async function seedRules(database: Database, types: number, count: number): Promise<void> {
  await database.db.execute(sql`
    insert into warn_rule (id, device_type_id, name, format_msg, rule_type, logic_type, severity)
    select 'bench-rule-' || r, 'bench-type-' || (r % ${types}), 'Bench rule ' || r,
           '{device}: {rule}', 'Instant', 'AND', 'major'
    from generate_series(0, ${count - 1}) r`);
  await database.db.execute(sql`
    insert into warn_rule_item (rule_id, prop_code, prop_name, prop_origin, prop_val, val_type, condition_type)
    select 'bench-rule-' || r,
           case when r < ${types} then 'battery' else 'rssi' end,
           case when r < ${types} then 'Battery' else 'Signal' end,
           'Master',
           case when r < ${types} then ${String(BENCH_LOW_BATTERY)} else (-200 - r)::text end,
           'number', 'Lt'
    from generate_series(0, ${count - 1}) r`);
}
