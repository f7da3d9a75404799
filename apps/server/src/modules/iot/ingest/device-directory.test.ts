import type { DeviceAddress } from '@uiot/device-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, type TestDatabase } from '../../../../test/support/databases.ts';
import { insertDeviceRow, insertDeviceTypeRow, insertUnitRow } from '../../../../test/support/devices.ts';
import type { Db } from '../../../db/client.ts';
import { DEFAULT_STATION } from '../../../lib/station.ts';
import { DeviceDirectory } from './device-directory.ts';

const STATION = DEFAULT_STATION.id;
const byCode = (code: string): DeviceAddress => ({ by: 'code', stationId: STATION, code });

/** The database with its raw statements counted (the directory's lookups are raw statements). */
function counted(db: Db, failing = () => false) {
  let statements = 0;
  const proxy = new Proxy(db, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === 'execute' && typeof value === 'function') {
        return (...args: unknown[]) => {
          statements++;
          if (failing()) return Promise.reject(new Error('database unreachable'));
          return value.apply(target, args);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    db: proxy,
    get statements() {
      return statements;
    },
  };
}

describe.each(databases)('DeviceDirectory ($kind)', ({ open }) => {
  let database: TestDatabase;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    database = await open();
    const unitId = await insertUnitRow(database.db);
    const typeId = await insertDeviceTypeRow(database.db);
    for (let i = 0; i < 30; i++) {
      const code = `DD${String(i).padStart(3, '0')}`;
      ids.set(code, await insertDeviceRow(database.db, { unitId, typeId, code, regist: true }));
    }
    ids.set(
      'unregistered',
      await insertDeviceRow(database.db, { unitId, typeId, code: 'DDX', regist: false }),
    );
    ids.set(
      'lora',
      await insertDeviceRow(database.db, { unitId, typeId, devEui: 'A1B2C3D4E5F60708', regist: true }),
    );
    ids.set(
      'nb',
      await insertDeviceRow(database.db, { unitId, typeId, imei: '861234567890123', regist: true }),
    );
  });
  afterAll(() => database?.close());

  it('looks up the addresses asked for in one turn together, one query per kind of address', async () => {
    const db = counted(database.db);
    const directory = new DeviceDirectory(db.db);
    const codes = [...ids.keys()].filter((k) => k.startsWith('DD'));
    const answers = await Promise.all([
      ...codes.map((code) => directory.resolve(byCode(code))),
      directory.resolve(byCode('DDX')),
      directory.resolve(byCode('NOSUCH')),
      directory.resolve({ by: 'devEui', devEui: 'a1b2c3d4e5f60708' }),
      directory.resolve({ by: 'imei', imei: '861234567890123' }),
      directory.resolve(byCode('DD001')),
    ]);
    expect(db.statements).toBe(3);
    expect(answers.slice(0, codes.length).map((d) => d?.deviceId)).toEqual(codes.map((c) => ids.get(c)));
    expect(answers[codes.length]).toBeNull();
    expect(answers[codes.length + 1]).toBeNull();
    expect(answers[codes.length + 2]).toMatchObject({
      deviceId: ids.get('lora'),
      devEui: 'A1B2C3D4E5F60708',
    });
    expect(answers[codes.length + 3]).toMatchObject({ deviceId: ids.get('nb'), stationId: STATION });
    expect(answers.at(-1)).toMatchObject({ deviceId: ids.get('DD001'), code: 'DD001' });
  });

  it('splits a long lookup into queries of at most maxLookup addresses', async () => {
    const db = counted(database.db);
    const directory = new DeviceDirectory(db.db, { maxLookup: 7 });
    const codes = [...ids.keys()].filter((k) => k.startsWith('DD'));
    const answers = await Promise.all(codes.map((code) => directory.resolve(byCode(code))));
    expect(db.statements).toBe(Math.ceil(codes.length / 7));
    expect(answers.every((d) => d !== null)).toBe(true);
  });

  it('remembers a device for between half and all of its time to live, and looks it up again after', async () => {
    let now = 1_000_000;
    let random = 0;
    const db = counted(database.db);
    const directory = new DeviceDirectory(db.db, { ttlMs: 60_000, now: () => now, random: () => random });
    await directory.resolve(byCode('DD002'));
    random = 0.999;
    await directory.resolve(byCode('DD003'));
    expect(db.statements).toBe(2);
    now += 29_999;
    expect(directory.resolve(byCode('DD002'))).toMatchObject({ deviceId: ids.get('DD002') });
    now += 2;
    expect(directory.resolve(byCode('DD002'))).toBeInstanceOf(Promise);
    expect(directory.resolve(byCode('DD003'))).toMatchObject({ deviceId: ids.get('DD003') });
    now += 29_990;
    expect(directory.resolve(byCode('DD003'))).toBeInstanceOf(Promise);
  });

  it('fails every address of a failed lookup, and asks the database again next time', async () => {
    let down = true;
    const db = counted(database.db, () => down);
    const directory = new DeviceDirectory(db.db);
    const failed = await Promise.allSettled([
      directory.resolve(byCode('DD004')),
      directory.resolve(byCode('DD005')),
    ]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    down = false;
    expect(await directory.resolve(byCode('DD004'))).toMatchObject({ deviceId: ids.get('DD004') });
    expect(db.statements).toBe(2);
  });
});
