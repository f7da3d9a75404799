import type { PinAlgorithm, PinStorage, PinType } from '@uiot/contracts';
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tz } from '../../db/columns.ts';

/**
 * Offline PINs (spec §3 PIN; docs/offline-pins.md). A derived PIN's code is not kept: the server derives it
 * from the lock's PIN secret and the reference when it is generated, shows it once, and never again; a stored
 * PIN's code is kept only until its lock confirms it and its generator has seen it (a durable PIN's code is
 * drawn when its lock wakes, after generation).
 */
export const offlinePin = pgTable(
  'offline_pin',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    stationId: text('station_id').notNull(),
    deviceId: text('device_id').notNull(),
    deviceName: text('device_name').notNull(),
    type: text('type').$type<PinType>().notNull(),
    algorithm: text('algorithm').$type<PinAlgorithm>().notNull().default('totp'),
    /** Derived by the lock, or (durable, custom LoRaWAN) waiting to be sent to it, or stored on it. */
    storage: text('storage').$type<PinStorage>().notNull().default('derived'),
    /** A stored PIN's id on its lock (setPin / deletePin). */
    storedId: integer('stored_id'),
    /**
     * A stored PIN's code until the lock confirms it holds it and its generator has seen it: it must reach a
     * lock that may wake much later. Null for a durable PIN until its lock wakes and the code is drawn.
     */
    pendingCode: text('pending_code'),
    /** When its generator was shown the code (at generation, or a durable PIN's once drawn); null before. */
    codeShownAt: tz('code_shown_at'),
    /** The setPin command last sent for it. */
    deliveryCommandId: text('delivery_command_id'),
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
    index('offline_pin_delivery_idx').on(t.deliveryCommandId).where(sql`${t.deliveryCommandId} is not null`),
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
