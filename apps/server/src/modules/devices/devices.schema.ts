import type { KeyState } from '@uiot/contracts';
import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, tz, updatedAt } from '../../db/columns.ts';
import { staff } from '../org/org.schema.ts';

/**
 * Operation unit (spec §3): a tree of the places devices belong to. `stationId` is the installation's
 * station, set by the service; `typeId` names the unit's type.
 */
export const operationUnit = pgTable(
  'operation_unit',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    name: text('name').notNull(),
    menuName: text('menu_name'),
    parentId: text('parent_id'),
    sortIndex: integer('sort_index').notNull().default(0),
    stationId: text('station_id').notNull(),
    typeId: text('type_id'),
    description: text('description'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('operation_unit_parent_idx').on(t.parentId),
    index('operation_unit_station_idx').on(t.stationId),
  ],
);
export type OperationUnitRow = typeof operationUnit.$inferSelect;

/**
 * Device type: a main type (no parent) or a sub type under one, with its category and the intervals the
 * IoT pipeline uses to decide online / offline (seconds).
 */
export const deviceType = pgTable(
  'device_type',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    name: text('name').notNull(),
    code: text('code').notNull(),
    parentId: text('parent_id'),
    category: text('category').notNull(),
    reportInterval: integer('report_interval').notNull(),
    heartbeatInterval: integer('heartbeat_interval').notNull(),
    sortIndex: integer('sort_index').notNull().default(0),
    description: text('description'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('device_type_code_key').on(sql`lower(${t.code})`),
    index('device_type_parent_idx').on(t.parentId),
  ],
);
export type DeviceTypeRecord = typeof deviceType.$inferSelect;

/**
 * A device of the ledger (spec §3 Device): a lock or lock controller, or an attached device when
 * `mainDeviceId` names its main device. Codes, IMEIs and LoRaWAN identifiers are unique when given.
 */
export const device = pgTable(
  'device',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    /**
     * The device's number, never used again: the four-byte key of its telemetry (device_history's indexes),
     * where the 36-character id made every index entry more than twice as wide and each history row dearer
     * as the table grew.
     */
    seq: integer('seq').notNull().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    code: text('code'),
    sbbh: text('sbbh'),
    adCode: text('ad_code'),
    bayId: text('bay_id'),
    lng: numeric('lng', { precision: 10, scale: 7 }),
    lat: numeric('lat', { precision: 9, scale: 7 }),
    isDrawTool: boolean('is_draw_tool').notNull().default(false),
    stationId: text('station_id').notNull(),
    status: text('status').notNull().default('normal'),
    unitId: text('unit_id')
      .notNull()
      .references(() => operationUnit.id),
    typeId: text('type_id')
      .notNull()
      .references(() => deviceType.id),
    category: text('category').notNull(),
    voltage: text('voltage'),
    deptId: text('dept_id'),
    /** Who answers for the device: none once that staff member is deleted. */
    staffId: text('staff_id').references(() => staff.id, { onDelete: 'set null' }),
    description: text('description'),
    extra1: text('extra1'),
    extra2: text('extra2'),
    graphId: text('graph_id'),
    idxNo: integer('idx_no'),
    imei: text('imei'),
    imsi: text('imsi'),
    appKey: text('app_key'),
    iotType: text('iot_type'),
    lockStatus: text('lock_status').notNull().default('unknown'),
    mainDeviceId: text('main_device_id'),
    netType: text('net_type'),
    noState: boolean('no_state').notNull().default(false),
    noWorking: boolean('no_working').notNull().default(false),
    addr: text('addr'),
    secondId: text('second_id'),
    kmInfo: text('km_info'),
    line: text('line'),
    track: text('track'),
    door: text('door'),
    regist: boolean('regist').notNull().default(false),
    registTime: tz('regist_time'),
    appEui: text('app_eui'),
    devEui: text('dev_eui'),
    productId: text('product_id'),
    platName: text('plat_name'),
    camera: text('camera'),
    preSet: text('pre_set'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('device_seq_key').on(t.seq),
    uniqueIndex('device_code_key').on(t.code),
    uniqueIndex('device_imei_key').on(t.imei),
    uniqueIndex('device_dev_eui_key').on(t.devEui),
    index('device_unit_idx').on(t.unitId),
    index('device_type_idx').on(t.typeId),
    index('device_main_idx').on(t.mainDeviceId),
    index('device_name_idx').on(t.name, t.id),
    // The ledger's default order: main devices by name.
    index('device_main_name_idx').on(t.name, t.id).where(sql`${t.mainDeviceId} is null`),
    index('device_created_idx').on(t.createdAt, t.id),
  ],
);
export type DeviceRecord = typeof device.$inferSelect;

/** Lock code of a device (spec §3): the RFID that opens it is unique over the ledger. */
export const lockCode = pgTable(
  'lock_code',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    deviceId: text('device_id')
      .notNull()
      .references(() => device.id, { onDelete: 'cascade' }),
    dnbs: text('dnbs'),
    rfidCode: text('rfid_code').notNull(),
    rfidType: text('rfid_type'),
    blueAddr: text('blue_addr'),
    effect: boolean('effect').notNull().default(true),
    effectiveTime: tz('effective_time'),
    expirationTime: tz('expiration_time'),
    remark: text('remark'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('lock_code_rfid_key').on(t.rfidCode), index('lock_code_device_idx').on(t.deviceId)],
);

/** Correction (adjust) value of a device (spec §3). */
export const adjustValue = pgTable(
  'adjust_value',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    deviceId: text('device_id')
      .notNull()
      .references(() => device.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    value: doublePrecision('value').notNull(),
    type: text('type'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('adjust_value_device_idx').on(t.deviceId)],
);

/** Electronic key (spec §3 Key); its code is unique. */
export const lockKey = pgTable(
  'lock_key',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    name: text('name').notNull(),
    code: text('code').notNull(),
    /** Who holds the key: a staff member holding keys is not deleted (StaffHoldsKeys). */
    staffId: text('staff_id').references(() => staff.id, { onDelete: 'restrict' }),
    deptId: text('dept_id'),
    description: text('description'),
    /** normal, lost or disabled (KEY_STATES): only a normal key opens. */
    state: text('state').$type<KeyState>().notNull().default('normal'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('lock_key_code_key').on(sql`lower(${t.code})`),
    index('lock_key_staff_idx').on(t.staffId),
  ],
);

/** The permanent password of a device: shown only to holders of its permission, never logged. */
export const devicePassword = pgTable('device_password', {
  deviceId: text('device_id')
    .primaryKey()
    .references(() => device.id, { onDelete: 'cascade' }),
  password: text('password').notNull(),
  updatedBy: text('updated_by'),
  updatedAt: updatedAt(),
});

/**
 * One-click lock replacement (spec §4): the procedure and the state of each step (JSON list of
 * `{ step, state, reason, reasonParams, time }`), so it can be resumed and shown step by step.
 */
export const lockReplacement = pgTable(
  'lock_replacement',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    deviceId: text('device_id')
      .notNull()
      .references(() => device.id, { onDelete: 'restrict' }),
    replacementId: text('replacement_id')
      .notNull()
      .references(() => device.id, { onDelete: 'restrict' }),
    status: text('status').notNull(),
    steps: jsonb('steps').notNull(),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('lock_replacement_device_idx').on(t.deviceId),
    index('lock_replacement_replacement_idx').on(t.replacementId),
  ],
);
