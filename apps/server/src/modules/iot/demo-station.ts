import { and, eq, like } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { device, deviceType, operationUnit } from '../devices/devices.schema.ts';
import type { DeviceService } from '../devices/index.ts';
import { SERVER_OPERATOR } from '../devices/index.ts';

/** Codes of the demo station's devices start with this; nothing else in a ledger should. */
export const DEMO_CODE_PREFIX = 'DEMO-';
const DEMO_TYPE_CODE = 'DEMO-LOCK';
/** Heartbeat of the demo locks (seconds): short, so the monitor moves while one watches. */
export const DEMO_HEARTBEAT_SECONDS = 30;

export type DemoProtocol = 'mqtt' | 'chirpstack' | 'tcp';

interface DemoDevice {
  code: string;
  name: string;
  unit: string;
  protocol: DemoProtocol;
  devEui?: string;
}

const UNITS = ['站厅 Station hall', '站台 Platform', '设备房 Equipment room'] as const;

/** The demo fleet: native MQTT locks, LoRaWAN locks behind ChirpStack, TcpDirect lock controllers. */
export const DEMO_DEVICES: readonly DemoDevice[] = [
  ...Array.from(
    { length: 8 },
    (_, i): DemoDevice => ({
      code: `${DEMO_CODE_PREFIX}M-${String(i + 1).padStart(2, '0')}`,
      name: `门锁 Door lock ${i + 1}`,
      unit: UNITS[i % 3]!,
      protocol: 'mqtt',
    }),
  ),
  ...Array.from(
    { length: 4 },
    (_, i): DemoDevice => ({
      code: `${DEMO_CODE_PREFIX}L-${String(i + 1).padStart(2, '0')}`,
      name: `LoRa 挂锁 LoRa padlock ${i + 1}`,
      unit: UNITS[(i + 1) % 3]!,
      protocol: 'chirpstack',
      devEui: `D0E1A00000000${String(i + 1).padStart(3, '0')}`,
    }),
  ),
  ...Array.from(
    { length: 4 },
    (_, i): DemoDevice => ({
      code: `${DEMO_CODE_PREFIX}T-${String(i + 1).padStart(2, '0')}`,
      name: `锁控器 Lock controller ${i + 1}`,
      unit: UNITS[2]!,
      protocol: 'tcp',
    }),
  ),
];

export interface DemoCredential {
  stationId: string;
  code: string;
  secret: string;
  protocol: DemoProtocol;
  devEui?: string;
}

/**
 * Seeds the demo station (DEMO=1) once: a unit tree, a lock type with a short heartbeat and the demo
 * devices, registered. At every start each demo device gets a fresh secret (only hashes are stored), which
 * the in-process simulator uses; the ledger around them is left as the operator changed it.
 */
export async function prepareDemoStation(
  db: Db,
  ledger: Pick<DeviceService, 'register' | 'resetSecret'>,
  stationId: string,
): Promise<DemoCredential[]> {
  const [station] = await db
    .select({ id: operationUnit.id })
    .from(operationUnit)
    .where(and(eq(operationUnit.name, '演示站 Demo station'), eq(operationUnit.stationId, stationId)));
  const existing = await db
    .select({ id: device.id, code: device.code, regist: device.regist })
    .from(device)
    .where(like(device.code, `${DEMO_CODE_PREFIX}%`));
  if (!station && existing.length === 0) await seed(db, stationId);

  const rows = await db
    .select({ id: device.id, code: device.code, regist: device.regist, stationId: device.stationId })
    .from(device)
    .where(like(device.code, `${DEMO_CODE_PREFIX}%`));
  const credentials: DemoCredential[] = [];
  for (const demo of DEMO_DEVICES) {
    const row = rows.find((r) => r.code === demo.code);
    if (!row) continue; // removed by the operator: not simulated
    const credential = row.regist
      ? await ledger.resetSecret(row.id, SERVER_OPERATOR)
      : await ledger.register(row.id, SERVER_OPERATOR);
    if (!credential) continue;
    credentials.push({
      stationId: row.stationId,
      code: demo.code,
      secret: credential.secret,
      protocol: demo.protocol,
      ...(demo.devEui ? { devEui: demo.devEui } : {}),
    });
  }
  return credentials;
}

async function seed(db: Db, stationId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [root] = await tx
      .insert(operationUnit)
      .values({ name: '演示站 Demo station', stationId, sortIndex: 0 })
      .returning({ id: operationUnit.id });
    const unitIds = new Map<string, string>();
    for (const [index, name] of UNITS.entries()) {
      const [unit] = await tx
        .insert(operationUnit)
        .values({ name, parentId: root!.id, stationId, sortIndex: index })
        .returning({ id: operationUnit.id });
      unitIds.set(name, unit!.id);
    }
    const [existingType] = await tx
      .select({ id: deviceType.id })
      .from(deviceType)
      .where(eq(deviceType.code, DEMO_TYPE_CODE));
    const typeId =
      existingType?.id ??
      (
        await tx
          .insert(deviceType)
          .values({
            name: '演示智能锁 Demo smart lock',
            code: DEMO_TYPE_CODE,
            category: 'IoT',
            reportInterval: 300,
            heartbeatInterval: DEMO_HEARTBEAT_SECONDS,
          })
          .returning({ id: deviceType.id })
      )[0]!.id;
    await tx.insert(device).values(
      DEMO_DEVICES.map((d) => ({
        name: d.name,
        code: d.code,
        unitId: unitIds.get(d.unit)!,
        typeId,
        category: 'IoT',
        stationId,
        iotType: d.protocol === 'tcp' ? 'TcpDirect' : null,
        netType: d.protocol === 'chirpstack' ? 'LoRaWan' : d.protocol === 'tcp' ? 'Ethernet' : 'Cat1',
        devEui: d.devEui ?? null,
        description: 'DEMO=1',
      })),
    );
  });
}
