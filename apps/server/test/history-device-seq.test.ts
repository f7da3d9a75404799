/**
 * Migration 0034: every device gets a number, and the history recorded before it is keyed by those numbers,
 * including the records of devices deleted earlier, which are kept.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, MIGRATIONS, openPglite } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import { DeviceHistoryService } from '../src/modules/iot/device-history.service.ts';
import { openOwnPostgres } from './support/databases.ts';

const BEFORE = '0033_history_statistics';

/** A copy of the migrations that ends with `last`. */
function migrationsThrough(last: string): { folder: string; remove: () => void } {
  const folder = mkdtempSync(path.join(tmpdir(), 'uiot-migrations-'));
  cpSync(MIGRATIONS, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
  const end = journal.entries.findIndex((e) => e.tag === last);
  if (end < 0) throw new Error(`no migration ${last}`);
  journal.entries = journal.entries.slice(0, end + 1);
  writeFileSync(journalFile, JSON.stringify(journal));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

interface EmptyDatabase {
  kind: 'pglite' | 'postgres';
  open(): Promise<Database>;
  migrateThrough(database: Database, folder: string): Promise<void>;
}

const kinds: EmptyDatabase[] = [
  {
    kind: 'pglite',
    open: () => openPglite(null),
    migrateThrough: (database, folder) =>
      migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder: folder }),
  },
];
const adminUrl = process.env.TEST_DATABASE_URL?.trim();
if (adminUrl) {
  kinds.push({
    kind: 'postgres',
    open: () => openOwnPostgres(adminUrl, 'uiot_t', 2, false),
    migrateThrough: (database, folder) =>
      migrateNodePg(database.db as unknown as Parameters<typeof migrateNodePg>[0], {
        migrationsFolder: folder,
      }),
  });
}

describe.each(kinds)('history keyed by device number ($kind)', ({ open, migrateThrough }) => {
  let database: Database;

  beforeAll(async () => {
    database = await open();
    const before = migrationsThrough(BEFORE);
    try {
      await migrateThrough(database, before.folder);
    } finally {
      before.remove();
    }
    const { db } = database;
    await db.execute(sql`insert into operation_unit (id, name, station_id) values ('u', 'Unit', 's')`);
    await db.execute(sql`
      insert into device_type (id, name, code, category, report_interval, heartbeat_interval)
      values ('t', 'Lock', 'LOCK', 'IoT', 60, 60)`);
    await db.execute(sql`
      insert into device (id, name, unit_id, type_id, category, station_id)
      values ('dev-a', 'A', 'u', 't', 'IoT', 's'), ('dev-b', 'B', 'u', 't', 'IoT', 's')`);
    // 'gone-1' and 'gone-2' were deleted from the ledger; their records stayed.
    await db.execute(sql`
      insert into device_history (device_id, message_id, protocol, report_time, receive_time, raw, content)
      select d, m, 'mqtt', now(), now(), '{}', '{}'::jsonb
      from (values ('dev-a', 'm1'), ('dev-a', 'm2'), ('dev-b', 'm1'), ('gone-1', 'm1'), ('gone-1', 'm2'),
                   ('gone-2', 'm1')) as v(d, m)`);
    await database.migrate();
  }, 60_000);

  afterAll(async () => {
    await database?.close();
  });

  async function seqOf(): Promise<Map<string, number[]>> {
    const rows = rowsOf<{ device_id: string; device_seq: number }>(
      await database.db.execute(sql`select device_id, device_seq from device_history order by id`),
    );
    const seqs = new Map<string, number[]>();
    for (const r of rows) seqs.set(r.device_id, [...(seqs.get(r.device_id) ?? []), Number(r.device_seq)]);
    return seqs;
  }

  it("keys each device's records by its number, and each deleted device's by a number of its own", async () => {
    const devices = rowsOf<{ id: string; seq: number }>(
      await database.db.execute(sql`select id, seq from device order by id`),
    );
    const seqOfDevice = new Map(devices.map((d) => [d.id, Number(d.seq)]));
    expect(new Set(seqOfDevice.values()).size).toBe(2);
    const history = await seqOf();
    expect(history.get('dev-a')).toEqual([seqOfDevice.get('dev-a'), seqOfDevice.get('dev-a')]);
    expect(history.get('dev-b')).toEqual([seqOfDevice.get('dev-b')]);
    const [gone1, again] = history.get('gone-1')!;
    const [gone2] = history.get('gone-2')!;
    expect(gone1).toBe(again);
    expect(new Set([...seqOfDevice.values(), gone1, gone2]).size).toBe(4);
  });

  it("finds a device's records by its id through its number, and none for a device deleted earlier", async () => {
    const history = new DeviceHistoryService(database.db);
    const page = (deviceId: string) => history.query({ deviceId, pageIndex: 1, pageSize: 20 }, 'en');
    const a = await page('dev-a');
    expect(a.total).toBe(2);
    expect(a.rows.map((r) => `${r.deviceId} ${r.messageId}`).sort()).toEqual(['dev-a m1', 'dev-a m2']);
    expect((await page('dev-b')).rows.map((r) => r.deviceId)).toEqual(['dev-b']);
    expect((await page('gone-1')).total).toBe(0);
  });

  it('gives a device added later a number no record has, and keeps a message once per device', async () => {
    await database.db.execute(sql`
      insert into device (id, name, unit_id, type_id, category, station_id)
      values ('dev-c', 'C', 'u', 't', 'IoT', 's')`);
    const [added] = rowsOf<{ seq: number }>(
      await database.db.execute(sql`select seq from device where id = 'dev-c'`),
    );
    const taken = [...(await seqOf()).values()].flat();
    expect(taken).not.toContain(Number(added!.seq));
    await expect(
      database.db.execute(sql`
        insert into device_history (device_id, device_seq, message_id, protocol, report_time, receive_time, raw)
        select 'dev-a', seq, 'm1', 'mqtt', now(), now(), '{}' from device where id = 'dev-a'`),
    ).rejects.toThrow();
    await expect(
      database.db.execute(sql`
        insert into device_history (device_id, message_id, protocol, report_time, receive_time, raw)
        values ('dev-c', 'm9', 'mqtt', now(), now(), '{}')`),
    ).rejects.toThrow();
  });
});
