import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../src/lib/test-support.ts';
import { SERVER_OPERATOR } from '../src/modules/devices/device-operation.ts';
import { device } from '../src/modules/devices/devices.schema.ts';
import { DEMO_CODE_PREFIX, DEMO_DEVICES } from '../src/modules/iot/demo-station.ts';
import { deviceHistory } from '../src/modules/iot/iot.schema.ts';
import type { RunningSystem } from '../src/system.ts';
import { databases, type TestDatabase } from './support/databases.ts';
import { startBusSystem } from './support/device-bus.ts';

const [pglite] = databases;

describe('DEMO=1', () => {
  let database: TestDatabase;
  let system: (RunningSystem & { removeDir(): void }) | null = null;

  beforeAll(async () => {
    database = await pglite!.open();
  });

  afterAll(async () => {
    await system?.stop();
    system?.removeDir();
    await database?.close();
  });

  it('seeds a demo station whose simulated locks report over MQTT, ChirpStack and TcpDirect', async () => {
    system = await startBusSystem(database, { demo: true, chirpstackMqttPassword: undefined });
    const online = async () => {
      const page = await system!.services.iot.runtime.query(
        { code: DEMO_CODE_PREFIX, pageIndex: 1, pageSize: 100 },
        SERVER_OPERATOR,
      );
      return page.rows.filter((r) => r.online);
    };
    await waitFor(
      async () => (await online()).length === DEMO_DEVICES.length,
      30_000,
      'every demo lock online',
    );
    const rows = await online();
    expect(rows.every((r) => r.lockState !== 'unknown' && r.battery !== null)).toBe(true);
    const protocols = await database.db
      .selectDistinct({ protocol: deviceHistory.protocol })
      .from(deviceHistory)
      .orderBy(deviceHistory.protocol);
    const seen = protocols.map((r) => r.protocol);
    expect(seen).toEqual(['chirpstack', 'mqtt', 'tcp']);
  });

  it('keeps the ledger as it is at the next start and gives the locks fresh secrets', async () => {
    await system!.stop();
    system!.removeDir();
    system = await startBusSystem(database, { demo: true, chirpstackMqttPassword: undefined });
    const demo = await database.db
      .select({ id: device.id })
      .from(device)
      .where(like(device.code, `${DEMO_CODE_PREFIX}%`));
    expect(demo.length).toBe(DEMO_DEVICES.length);
    const before = system.services.iot.ingest.snapshot().stored;
    await waitFor(
      async () => system!.services.iot.ingest.snapshot().stored > before,
      30_000,
      'reports after a restart',
    );
  });
});
