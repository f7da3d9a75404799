import type { PinType } from '@uiot/contracts';
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tz } from '../../db/columns.ts';

/**
 * Offline PINs (spec §3 PIN; docs/offline-pins.md). The code itself is not kept: the server derives it from
 * the lock's PIN secret and the reference when it is generated, shows it once, and never again.
 */
export const offlinePin = pgTable(
  'offline_pin',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    stationId: text('station_id').notNull(),
    deviceId: text('device_id').notNull(),
    deviceName: text('device_name').notNull(),
    type: text('type').$type<PinType>().notNull(),
    /** The PIN's counter in 16 hex digits: how the lock names it in a use report and a deletePin command. */
    ref: text('ref').notNull(),
    /** The station hour a once or time-period PIN starts in, or a weekly PIN's first window (erase checks). */
    startHour: integer('start_hour').notNull(),
    startTime: tz('start_time').notNull(),
    endTime: tz('end_time').notNull(),
    /** A weekly PIN's weekday mask (bit 0 Monday); 0 for the others. */
    weekdays: integer('weekdays').notNull().default(0),
    activationDeadline: tz('activation_deadline').notNull(),
    generatorId: text('generator_id'),
    generatorName: text('generator_name'),
    userId: text('user_id').notNull(),
    userName: text('user_name'),
    reason: text('reason').notNull(),
    /** What the "who may open" decision allowed it under. */
    taskId: text('task_id'),
    taskName: text('task_name'),
    authorizationId: text('authorization_id'),
    usageTime: tz('usage_time'),
    lastUsedTime: tz('last_used_time'),
    useCount: integer('use_count').notNull().default(0),
    revokedAt: tz('revoked_at'),
    revokedByName: text('revoked_by_name'),
    /** The deletePin command last sent for it (revoked PINs only). */
    deletionCommandId: text('deletion_command_id'),
    deletionConfirmedAt: tz('deletion_confirmed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    // A reference opens the lock for one PIN only: a slot or a weekly choice is never given twice.
    uniqueIndex('offline_pin_device_ref_key').on(t.deviceId, t.ref),
    index('offline_pin_time_idx').on(t.createdAt, t.id),
    index('offline_pin_deletion_idx').on(t.deletionCommandId).where(sql`${t.deletionCommandId} is not null`),
  ],
);
export type OfflinePinRow = typeof offlinePin.$inferSelect;

/** Erase codes given out (docs/offline-pins.md): the lock forgets every PIN starting at `hour` or before. */
export const pinEraseCode = pgTable(
  'pin_erase_code',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    deviceId: text('device_id').notNull(),
    /** The station hour the code carries. */
    hour: integer('hour').notNull(),
    issuedByName: text('issued_by_name'),
    usedAt: tz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('pin_erase_code_device_hour_key').on(t.deviceId, t.hour)],
);
