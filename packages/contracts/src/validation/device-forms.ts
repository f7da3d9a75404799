import { z } from 'zod';
import type { FeatureSwitch } from '../feature-flags.ts';
import {
  bluetoothAddress,
  decimalNumber,
  eui,
  imei,
  imsi,
  intervalSeconds,
  latitude,
  lockRfid,
  longitude,
  optionalCode,
  optionalTime,
  requiredCode,
  wholeNumber,
} from './device-formats.ts';
import { KEY_STATES } from './lock-task-forms.ts';
import { nameText, optionalText } from './org-forms.ts';

/** Operation unit (spec §3); the sort index is a whole number (spec §5 "unit sort index numeric"). */
export const unitForm = z.object({
  name: nameText(64),
  menuName: optionalText(64),
  parentId: z.string().max(64).nullable().optional(),
  sortIndex: wholeNumber.default(0),
  typeId: optionalText(64),
  desc: optionalText(255),
});
export type UnitForm = z.infer<typeof unitForm>;

/** Device category (spec §3): electronic lock, lock controller, IoT lock. */
export const DEVICE_CATEGORIES = ['Elec', 'LC', 'IoT'] as const;
export type DeviceCategory = (typeof DEVICE_CATEGORIES)[number];
/** How an IoT lock reaches the server (spec §3 iotType). */
export const IOT_TYPES = ['ChinaTelecom', 'ChinaUnicom', 'ChinaMobile', 'TcpDirect'] as const;
export type IotType = (typeof IOT_TYPES)[number];
/** The network a lock uses. */
export const NET_TYPES = ['NbIot', 'LoRaWan', 'Cat1', 'Ethernet', 'Bluetooth'] as const;
export type NetType = (typeof NET_TYPES)[number];
/** Run state (spec §4). */
export const RUN_STATES = ['normal', 'damaged', 'lowPower', 'timeOutNotClosed'] as const;
export type RunState = (typeof RUN_STATES)[number];
/** Lock and door state (spec §4); `unknown` until the lock reports. */
export const OPEN_STATES = ['open', 'closed', 'unknown'] as const;
export type OpenState = (typeof OPEN_STATES)[number];

/** Default reporting and heartbeat intervals of a new device type, in seconds. */
export const DEFAULT_REPORT_INTERVAL = 3600;
export const DEFAULT_HEARTBEAT_INTERVAL = 300;

/**
 * Device type (main type, or sub type under a main type) with its category and the intervals the IoT
 * pipeline uses to decide online / offline.
 */
export const deviceTypeForm = z.object({
  name: nameText(64),
  code: requiredCode(32),
  parentId: z.string().max(64).nullable().optional(),
  category: z.enum(DEVICE_CATEGORIES),
  reportInterval: intervalSeconds.default(DEFAULT_REPORT_INTERVAL),
  heartbeatInterval: intervalSeconds.default(DEFAULT_HEARTBEAT_INTERVAL),
  sortIndex: wholeNumber.default(0),
  desc: optionalText(255),
});
export type DeviceTypeForm = z.infer<typeof deviceTypeForm>;

/** Interval management (spec §2 /device/intervalManage): both intervals, positive whole seconds. */
export const intervalForm = z.object({
  id: z.string().min(1).max(64),
  reportInterval: intervalSeconds,
  heartbeatInterval: intervalSeconds,
});
export type IntervalForm = z.infer<typeof intervalForm>;

const optionalId = z
  .string()
  .max(64)
  .transform((v) => (v === '' ? null : v))
  .nullable()
  .optional();

/** What a device and an attached device share (spec §3 Attached device). */
const attachedFields = {
  name: nameText(64),
  imei,
  imsi,
  typeId: z.string({ error: 'v.required' }).min(1, { error: 'v.required' }).max(64),
  category: z.enum(DEVICE_CATEGORIES).nullable().optional(),
  iotType: z.enum(IOT_TYPES).nullable().optional(),
};

/**
 * A device of the ledger (spec §3 Device, §5): name, district (operation unit) and type required; the
 * category defaults to the type's. `regist`, `lockStatus`, `mainDeviceId` and the camera link are set by
 * their own actions, not by this form.
 */
export const deviceForm = z.object({
  ...attachedFields,
  unitId: z.string({ error: 'v.required' }).min(1, { error: 'v.required' }).max(64),
  code: optionalCode(64),
  sbbh: optionalText(64),
  adCode: optionalText(12),
  bayId: optionalText(64),
  lng: longitude,
  lat: latitude,
  isDrawTool: z.boolean().default(false),
  status: z.enum(RUN_STATES).default('normal'),
  voltage: optionalText(32),
  deptId: optionalId,
  staffId: optionalId,
  desc: optionalText(255),
  extra1: optionalText(255),
  extra2: optionalText(255),
  graphId: optionalText(64),
  idxNo: wholeNumber.nullable().optional(),
  appKey: optionalText(128),
  netType: z.enum(NET_TYPES).nullable().optional(),
  noState: z.boolean().default(false),
  noWorking: z.boolean().default(false),
  addr: optionalText(255),
  secondId: optionalText(64),
  kmInfo: optionalText(64),
  line: optionalText(64),
  track: optionalText(64),
  door: optionalText(64),
  appEUI: eui,
  devEUI: eui,
  productId: optionalText(64),
  platName: optionalText(64),
});
export type DeviceForm = z.infer<typeof deviceForm>;

/**
 * Fields of the device dialog that belong to a feature flag (spec §6): offered by the console, and accepted
 * by the server, only while the flag is on; while it is off an edit keeps what the device has. SupportIoT:
 * how an IoT lock reaches the server (IMEI, IMSI, IoT platform, network, LoRaWAN and platform identifiers);
 * NoState: a lock without state reporting; ShowKmInfo: kilometre point, line, track and door.
 */
export const FLAGGED_DEVICE_FIELDS = {
  SupportIoT: ['imei', 'imsi', 'iotType', 'netType', 'appKey', 'devEUI', 'appEUI', 'productId', 'platName'],
  NoState: ['noState'],
  ShowKmInfo: ['kmInfo', 'line', 'track', 'door'],
} as const satisfies Partial<Record<FeatureSwitch, readonly (keyof DeviceForm)[]>>;

/** The fields of an attached device that belong to a feature flag, as FLAGGED_DEVICE_FIELDS. */
export const FLAGGED_ATTACHMENT_FIELDS = {
  SupportIoT: ['imei', 'imsi', 'iotType'],
} as const satisfies Partial<Record<FeatureSwitch, readonly (keyof AttachmentForm)[]>>;

/** Fields of a form by the flag they belong to. */
export type FlaggedFields<F> = Partial<Record<FeatureSwitch, readonly (keyof F & string)[]>>;

/**
 * An IoT lock (managed only while SupportIoT is on): of the IoT category, or reaching the server through an
 * IoT platform, a network, an IMEI or a devEUI.
 */
export function isIotDevice(d: {
  category: DeviceCategory;
  iotType: IotType | null;
  netType: NetType | null;
  imei: string | null;
  devEUI: string | null;
}): boolean {
  return d.category === 'IoT' || d.iotType !== null || d.netType !== null || !!d.imei || !!d.devEUI;
}

/** Most devices one batch adds. */
export const BATCH_ADD_MAX = 500;

/**
 * Batch add (spec §5): name prefix, description prefix and count are required; the devices are named
 * `{prefix}{n}` and described `{descPrefix}{n}`, n from 1, in the unit and of the type given.
 */
export const batchAddForm = z.object({
  namePrefix: nameText(48),
  descPrefix: nameText(200),
  count: z.coerce
    .number({ error: 'v.required' })
    .int({ error: 'v.batchCount' })
    .min(1, { error: 'v.batchCount' })
    .max(BATCH_ADD_MAX, { error: 'v.batchCount' }),
  unitId: z.string({ error: 'v.required' }).min(1, { error: 'v.required' }).max(64),
  typeId: z.string({ error: 'v.required' }).min(1, { error: 'v.required' }).max(64),
  category: z.enum(DEVICE_CATEGORIES).nullable().optional(),
  iotType: z.enum(IOT_TYPES).nullable().optional(),
  deptId: optionalId,
  staffId: optionalId,
});
export type BatchAddForm = z.infer<typeof batchAddForm>;

/** An attached device under a main device (spec §3 Attached device). */
export const attachmentForm = z.object({
  mainDeviceId: z.string().min(1).max(64),
  ...attachedFields,
});
export type AttachmentForm = z.infer<typeof attachmentForm>;

/** The names of the devices of a batch. */
export function batchNames(form: Pick<BatchAddForm, 'namePrefix' | 'descPrefix' | 'count'>) {
  return Array.from({ length: form.count }, (_, i) => ({
    name: `${form.namePrefix}${i + 1}`,
    desc: `${form.descPrefix}${i + 1}`,
  }));
}

/**
 * Lock code (spec §3): the RFID that opens the lock (12 hex, upper-cased), its kind, the Bluetooth
 * address, whether it is in effect and when; the end must be later than the start when both are given.
 */
export const lockCodeForm = z
  .object({
    deviceId: z.string().min(1).max(64),
    dnbs: optionalText(32),
    rfidCode: lockRfid,
    rfidType: optionalText(32),
    blueAddr: bluetoothAddress,
    effect: z.boolean().default(true),
    effectiveTime: optionalTime,
    expirationTime: optionalTime,
    remark: optionalText(255),
  })
  .superRefine((form, ctx) => {
    if (form.effectiveTime && form.expirationTime && form.expirationTime <= form.effectiveTime) {
      ctx.addIssue({ code: 'custom', path: ['expirationTime'], message: 'v.endAfterStart' });
    }
  });
export type LockCodeForm = z.infer<typeof lockCodeForm>;

/** Correction (adjust) value (spec §3): a named number of a kind. */
export const adjustValueForm = z.object({
  deviceId: z.string().min(1).max(64),
  name: nameText(64),
  value: decimalNumber,
  type: optionalText(32),
});
export type AdjustValueForm = z.infer<typeof adjustValueForm>;

/** Electronic key (spec §3 Key): its code is unique; the holder and department are optional. */
export const keyForm = z.object({
  name: nameText(64),
  code: requiredCode(32),
  staffId: optionalId,
  deptId: optionalId,
  desc: optionalText(255),
  /** A lost or disabled key opens nothing (docs/lock-tasks.md, Who may open). */
  state: z.enum(KEY_STATES, { error: 'v.invalid' }).default('normal'),
});
export type KeyForm = z.infer<typeof keyForm>;

/** A permanent device password: 6 to 12 digits. */
export const DEVICE_PASSWORD_PATTERN = /^\d{6,12}$/;
export const devicePasswordForm = z.object({
  deviceId: z.string().min(1).max(64),
  password: z
    .string({ error: 'v.required' })
    .trim()
    .min(1, { error: 'v.required' })
    .regex(DEVICE_PASSWORD_PATTERN, { error: 'v.devicePassword' }),
});
export type DevicePasswordForm = z.infer<typeof devicePasswordForm>;
