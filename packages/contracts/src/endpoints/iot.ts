import { z } from 'zod';
import { deviceAbilities } from '../abilities.ts';
import { defineEndpoint } from '../endpoint.ts';
import { pageQuery, pageResult } from '../paging.ts';
import { Permission } from '../permissions.ts';
import { OPEN_STATES, RUN_STATES } from '../validation/device-forms.ts';
import { searchTime } from '../validation/formats.ts';
import type { BatteryBandScale } from './levels.ts';

const text = z.string().nullable();
const time = z.string().nullable();
const id = z.string().min(1).max(64);
const yesNo = z.enum(['true', 'false']).optional();

/**
 * Battery bands of the runtime filter: low below `lowBelow` %, high from `highFrom` %, medium between. They
 * follow the power levels (`/powerLevel/batteryBands`); these are the bands while no level is defined.
 */
export const BATTERY_BANDS = ['low', 'medium', 'high'] as const;
export type BatteryBand = (typeof BATTERY_BANDS)[number];
export const DEFAULT_BATTERY_BANDS: BatteryBandScale = { lowBelow: 20, highFrom: 60, fromLevels: false };

/** The band of a battery level on a scale (the default bands unless given); null when the level is unknown. */
export function batteryBand(
  battery: number | null | undefined,
  scale: BatteryBandScale = DEFAULT_BATTERY_BANDS,
): BatteryBand | null {
  if (battery === null || battery === undefined || !Number.isFinite(battery)) return null;
  if (battery < scale.lowBelow) return 'low';
  return battery < scale.highFrom ? 'medium' : 'high';
}

/** How a message reached the server. */
export const DEVICE_PROTOCOLS = ['mqtt', 'chirpstack', 'nbiot', 'tcp'] as const;

/** Runtime data of a device (spec §3): what the IoT pipeline last learnt from it. */
export const runtimeRow = z.object({
  deviceId: z.string(),
  deviceName: z.string(),
  deviceCode: text,
  stationId: z.string(),
  unitId: z.string(),
  unitName: text,
  typeId: z.string(),
  typeName: text,
  lockState: z.enum(OPEN_STATES),
  doorState: z.enum(OPEN_STATES),
  online: z.boolean(),
  /** Battery power, 0–100 %. */
  battery: z.number().nullable(),
  lastCollectTime: time,
  /** Seconds since the device went offline, at the time of the answer (`offlineSeconds`); null while online. */
  offlineSeconds: z.number().int().nullable(),
  /**
   * When the device went offline (its last message plus its type's allowance), from which the console
   * counts on; null while online or before the offline sweep marked it (then the last message counts).
   */
  offlineSince: time,
  runState: z.enum(RUN_STATES),
  rssi: z.number().nullable(),
  devEui: text,
  /** Extension properties of the last report. */
  props: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  /** What the signed-in user may do with the device. */
  abilities: deviceAbilities,
});
export type RuntimeRow = z.infer<typeof runtimeRow>;

export const runtimeSearch = z.object({
  name: z.string().trim().max(64).optional(),
  code: z.string().trim().max(64).optional(),
  unitId: id.optional(),
  typeId: id.optional(),
  online: yesNo,
  lockState: z.enum(OPEN_STATES).optional(),
  doorState: z.enum(OPEN_STATES).optional(),
  runState: z.enum(RUN_STATES).optional(),
  batteryBand: z.enum(BATTERY_BANDS).optional(),
});

export const queryRuntimePage = defineEndpoint({
  method: 'GET',
  path: '/runtime/queryPage',
  features: ['SupportIoT'],
  access: Permission.MonitorRead,
  module: 'iot',
  summary: 'Runtime data of the registered devices, paged',
  query: pageQuery.extend(runtimeSearch.shape),
  response: pageResult(runtimeRow),
});

export const getRuntimeByDeviceId = defineEndpoint({
  method: 'GET',
  path: '/runtime/getByDeviceId',
  features: ['SupportIoT'],
  access: Permission.MonitorRead,
  module: 'iot',
  summary: 'Runtime data of one device (null before its first report)',
  query: z.object({ deviceId: id }),
  response: runtimeRow.nullable(),
});

/**
 * Counters of the runtime monitor over the registered devices: offline counts the devices not online (also
 * those that never reported), low battery those in the low battery band, abnormal those whose run state is not normal.
 */
export const runtimeSummary = z.object({
  total: z.number().int(),
  online: z.number().int(),
  offline: z.number().int(),
  doorOpen: z.number().int(),
  lockOpen: z.number().int(),
  lowBattery: z.number().int(),
  abnormal: z.number().int(),
});
export type RuntimeSummary = z.infer<typeof runtimeSummary>;

export const getRuntimeSummary = defineEndpoint({
  method: 'GET',
  path: '/runtime/summary',
  features: ['SupportIoT'],
  access: Permission.MonitorRead,
  module: 'iot',
  summary: 'Counters of the runtime data of the registered devices',
  response: runtimeSummary,
});

/** A telemetry record (spec §3 Device history): one message as the device sent it. */
export const deviceHistoryRow = z.object({
  id: z.string(),
  deviceId: z.string(),
  deviceName: text,
  deviceCode: text,
  protocol: z.enum(DEVICE_PROTOCOLS),
  messageId: z.string(),
  reportTime: z.string(),
  receiveTime: z.string(),
  /** The message as received (JSON text, or hex for binary payloads). */
  rawMessage: z.string(),
  /** What the server read from it, as JSON text. */
  content: z.string(),
});
export type DeviceHistoryRow = z.infer<typeof deviceHistoryRow>;

/** Telemetry search: a time range (end after start; an export needs both, at most a year apart) and the device. */
export const deviceHistorySearch = z.object({
  startTime: searchTime,
  endTime: searchTime,
  deviceId: id.optional(),
  deviceName: z.string().trim().max(64).optional(),
});

export const queryDeviceHistoryPage = defineEndpoint({
  method: 'GET',
  path: '/deviceHistory/queryPage',
  features: ['SupportIoT'],
  access: Permission.IotMessageRead,
  module: 'iot',
  summary: 'Telemetry records, newest first, paged',
  query: pageQuery.extend(deviceHistorySearch.shape),
  response: pageResult(deviceHistoryRow),
});

/** Exports answer CSV (UTF-8 with BOM) rather than the envelope. */
export const exportDeviceHistory = defineEndpoint({
  method: 'GET',
  path: '/deviceHistory/export',
  features: ['SupportIoT'],
  access: Permission.IotMessageExport,
  module: 'iot',
  summary: 'Telemetry records of a time range (at most a year) as CSV',
  query: deviceHistorySearch,
  response: z.string(),
  fileAnswer: true,
  mutating: false,
});

/** The MQTT / TcpDirect credential of a device: shown once, when issued. */
export const deviceCredential = z.object({
  /** MQTT username and TcpDirect code: the device code. */
  username: z.string(),
  stationId: z.string(),
  /** At least 128 random bits, base64url. */
  secret: z.string(),
  /** The offline-PIN secret (docs/offline-pins.md): 20 bytes in hex, provisioned to the lock with the secret. */
  pinSecret: z.string(),
});
export type DeviceCredential = z.infer<typeof deviceCredential>;

export const resetDeviceSecret = defineEndpoint({
  method: 'GET',
  path: '/device/resetSecret',
  operatesDevice: true,
  features: ['SupportIoT'],
  access: Permission.DeviceRegister,
  module: 'devices',
  summary: 'Issue a new device secret to a registered device; the old one stops working at once',
  query: z.object({ id }),
  response: deviceCredential,
  mutating: true,
});

export const resetPinSecret = defineEndpoint({
  method: 'GET',
  path: '/device/resetPinSecret',
  operatesDevice: true,
  access: Permission.DeviceRegister,
  module: 'devices',
  summary:
    'A new offline-PIN secret for a registered lock, answered once to provision it (how a lock without a code gets one); PINs derived from the old one stop opening it',
  query: z.object({ id }),
  response: z.object({ pinSecret: z.string() }),
  mutating: true,
});

/**
 * Callbacks of the carriers' NB-IoT platforms (iotType ChinaTelecom, ChinaUnicom, ChinaMobile): data reports
 * and command status notifications in each platform's own JSON. Public (the platform has no session) but
 * every call must carry the platform's shared secret in the `X-Callback-Token` header.
 */
const nbCallback = (platform: string, path: string) =>
  defineEndpoint({
    method: 'POST',
    path,
    access: 'public',
    module: 'iot',
    summary: `${platform} NB-IoT platform callback (reports and command states)`,
    body: z.unknown(),
    response: z.object({
      accepted: z.number().int(),
      duplicates: z.number().int(),
      refused: z.number().int(),
    }),
    mutating: false,
  });

export const chinaTelecomCallback = nbCallback('China Telecom', '/nbiot/chinaTelecom/callback');
export const chinaUnicomCallback = nbCallback('China Unicom', '/nbiot/chinaUnicom/callback');
export const chinaMobileCallback = nbCallback('China Mobile', '/nbiot/chinaMobile/callback');

const latencySummary = z.object({
  count: z.number().int(),
  p50: z.number().nullable(),
  p99: z.number().nullable(),
  max: z.number().nullable(),
});

/** Counters of the ingest pipeline since start: what arrived, what was stored, what was refused and why. */
export const ingestStats = z.object({
  received: z.number().int(),
  stored: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.record(z.string(), z.number().int()),
  batches: z.number().int(),
  failedBatches: z.number().int(),
  /** Runtime rows the batches wrote (one per device and batch). */
  runtimeWrites: z.number().int(),
  /** Updates that repeated their device's last written states and were not written (INGEST_REPEAT_SECONDS). */
  runtimeRepeats: z.number().int(),
  queued: z.number().int(),
  /** Report time (device clock) to commit, from a histogram: bucket bounds, ms. */
  latencyMs: latencySummary,
  /** Report time to being taken by the pipeline: what the network and the broker took, ms. */
  arrivalMs: latencySummary,
});

export const getIngestStats = defineEndpoint({
  method: 'GET',
  path: '/iot/ingestStats',
  features: ['SupportIoT'],
  access: Permission.DeviceRead,
  module: 'iot',
  summary: 'Counters of the device message pipeline of this server instance',
  response: ingestStats,
});
