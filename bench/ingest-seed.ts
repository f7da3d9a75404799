/**
 * The ingest benchmark's database: migrated, with the built-in accounts, one unit, one device type whose
 * heartbeat is so long that no device goes offline during a run, and N registered devices with codes and
 * broker credentials.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.ts';
import { DEFAULT_STATION } from '../apps/server/src/lib/station.ts';
import { DeviceCredentials } from '../apps/server/src/modules/iot/device-credentials.ts';
import { ensureBuiltInAccounts } from '../apps/server/src/modules/org/admin-account.ts';

export interface SeededDevice {
  deviceId: string;
  code: string;
  /** The broker password of the device; never logged. */
  secret: string;
}

/** Codes are `B` + a zero-padded index, so that device index and code map both ways. */
export function benchDeviceCode(index: number): string {
  return `B${String(index).padStart(6, '0')}`;
}

export async function seedIngestDatabase(
  database: Database,
  devices: number,
  adminPassword: string,
): Promise<SeededDevice[]> {
  await database.migrate();
  await ensureBuiltInAccounts(database.db, adminPassword);
  const station = DEFAULT_STATION.id;
  await database.db.execute(sql`
    insert into operation_unit (id, name, station_id) values ('bench-unit', 'Bench unit', ${station})`);
  await database.db.execute(sql`
    insert into device_type (id, name, code, category, report_interval, heartbeat_interval)
    values ('bench-type', 'Bench lock', 'BENCH', 'IoT', 86400, 86400)`);
  await database.db.execute(sql`
    insert into device (name, code, unit_id, type_id, category, station_id, regist, regist_time)
    select 'Bench lock ' || g, 'B' || lpad(g::text, 6, '0'), 'bench-unit', 'bench-type', 'IoT', ${station},
           true, now()
    from generate_series(0, ${devices - 1}) g`);
  const result = await database.db.execute(sql`select id, code from device where type_id = 'bench-type'`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
    id: string;
    code: string;
  }>;
  const idByCode = new Map(rows.map((r) => [r.code, r.id]));
  const credentials = new DeviceCredentials(database.db);
  const seeded: SeededDevice[] = [];
  await database.db.transaction(async (tx) => {
    for (let index = 0; index < devices; index++) {
      const code = benchDeviceCode(index);
      const deviceId = idByCode.get(code);
      if (!deviceId) throw new Error(`seeded device ${code} not found`);
      const { credential } = await credentials.issue(tx, deviceId);
      if (!credential) throw new Error(`no credential issued to ${code}`);
      seeded.push({ deviceId, code, secret: credential.secret });
    }
  });
  return seeded;
}
