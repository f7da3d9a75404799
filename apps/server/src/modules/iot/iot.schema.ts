import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tz } from '../../db/columns.ts';
import { device } from '../devices/devices.schema.ts';

/**
 * Runtime data of a device (spec §3): what the IoT pipeline last learnt from it. States are null until
 * the device has reported them (read as `unknown`); `offlineSince` is the last message time of a device the
 * offline sweep found silent for longer than its type allows.
 *
 * No secondary index: every report rewrites last_collect_time, and an index on it would make each of those
 * updates an index insertion too. Without one the new row version stays on its page (a HOT update; the
 * table is kept 70 % full for it, migration 0007); the 15 s offline sweep reads the whole table instead.
 */
export const deviceRuntime = pgTable('device_runtime', {
  deviceId: text('device_id')
    .primaryKey()
    .references(() => device.id, { onDelete: 'cascade' }),
  lockState: text('lock_state'),
  doorState: text('door_state'),
  online: boolean('online').notNull().default(false),
  battery: real('battery'),
  lastCollectTime: tz('last_collect_time'),
  offlineSince: tz('offline_since'),
  /**
   * The run state shown, filtered and counted: the most severe of the lock's own (`reportedRunState`) and
   * those the server works out from the power and damage levels and the door-open time (run-state.ts).
   */
  runState: text('run_state'),
  /** The run state the lock reported last, if it reported one. */
  reportedRunState: text('reported_run_state'),
  /** Since when the door has stood open (the report that first said so); null while closed or unknown. */
  doorOpenSince: tz('door_open_since'),
  /** The lock's damage value: its `damage` reports of the last 30 days, as last counted. */
  damageCount: integer('damage_count').notNull().default(0),
  /** When the oldest counted damage report leaves the 30 days (the count is taken again then). */
  damageRecountAt: tz('damage_recount_at'),
  rssi: real('rssi'),
  devEui: text('dev_eui'),
  /** The ChirpStack application the device's uplinks came from: where its downlinks go. */
  chirpstackApplicationId: text('chirpstack_application_id'),
  props: jsonb('props').$type<Record<string, string | number | boolean>>(),
  lastMessageId: text('last_message_id'),
  updatedAt: tz('updated_at').notNull().defaultNow(),
});
export type DeviceRuntimeRecord = typeof deviceRuntime.$inferSelect;

/**
 * The `damage` reports of each lock (a forced bolt, a broken casing): counted over 30 days for its damage
 * value (docs/alarms.md, Run states). Older ones are removed.
 */
export const deviceDamageReport = pgTable(
  'device_damage_report',
  {
    deviceId: text('device_id')
      .notNull()
      .references(() => device.id, { onDelete: 'cascade' }),
    messageId: text('message_id').notNull(),
    reportedAt: tz('reported_at').notNull(),
  },
  (t) => [
    uniqueIndex('device_damage_report_key').on(t.deviceId, t.messageId),
    index('device_damage_report_time_idx').on(t.reportedAt),
  ],
);

/**
 * Device history (spec §3 telemetry): every message a device sent, as received and as read. A message id
 * is recorded once per device, which makes ingest idempotent. Kept for the configured retention.
 */
export const deviceHistory = pgTable(
  'device_history',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    deviceId: text('device_id').notNull(),
    /** The device's `seq`, which the per-device indexes use: four bytes where the id takes forty. */
    deviceSeq: integer('device_seq').notNull(),
    messageId: text('message_id').notNull(),
    protocol: text('protocol').notNull(),
    reportTime: tz('report_time').notNull(),
    receiveTime: tz('receive_time').notNull(),
    raw: text('raw').notNull(),
    /** The decoded message; null where it is read again from `raw` (device-protocol `isRecordedAgain`). */
    content: jsonb('content'),
  },
  (t) => [
    uniqueIndex('device_history_message_key').on(t.deviceSeq, t.messageId),
    index('device_history_report_time_idx').on(t.reportTime, t.id),
    index('device_history_device_time_idx').on(t.deviceSeq, t.reportTime),
  ],
);
export type DeviceHistoryRecord = typeof deviceHistory.$inferSelect;

/**
 * The broker credential of a registered device (MQTT username = device code, TcpDirect auth): only a
 * SHA-256 of the ≥128-bit random secret is kept; the secret itself is shown once, when issued.
 */
export const deviceCredential = pgTable('device_credential', {
  deviceId: text('device_id')
    .primaryKey()
    .references(() => device.id, { onDelete: 'cascade' }),
  secretHash: text('secret_hash').notNull(),
  issuedAt: tz('issued_at').notNull().defaultNow(),
});

/**
 * The offline-PIN secret of a registered device (docs/offline-pins.md): 20 random bytes in hex, shared with
 * the lock. Unlike the broker secret it is kept as it is, because the server derives PINs from it; it
 * leaves the server only once, when issued.
 */
export const devicePinSecret = pgTable('device_pin_secret', {
  deviceId: text('device_id')
    .primaryKey()
    .references(() => device.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  issuedAt: tz('issued_at').notNull().defaultNow(),
});
