import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, tz, updatedAt } from '../../db/columns.ts';
import { device } from '../devices/devices.schema.ts';

/**
 * Device command (spec §3): what was sent to a lock, by whom, and how far it got (spec §4 states). The
 * retransmit timer lives here too (`nextCheckAt`): a restarted server carries on where the last one stopped.
 *
 * `id` is the command id the lock echoes (native MQTT, TcpDirect) and ChirpStack's queue item id;
 * `receiveId` is what else the answer may name it by (`seq:{n}` of the lock's binary payload).
 */
export const deviceCommand = pgTable(
  'device_command',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    deviceId: text('device_id')
      .notNull()
      .references(() => device.id, { onDelete: 'restrict' }),
    cmdCode: text('cmd_code').notNull(),
    name: text('name').notNull(),
    params: jsonb('params').$type<Record<string, string | number | boolean>>(),
    expireTime: tz('expire_time').notNull(),
    maxRetransmit: integer('max_retransmit').notNull(),
    /** Sends so far, the first included. */
    attempts: integer('attempts').notNull().default(0),
    sendFlag: boolean('send_flag').notNull().default(false),
    /** The first send. */
    sendTime: tz('send_time'),
    lastSentAt: tz('last_sent_at'),
    /** How it left: mqtt, chirpstack, tcp or nbiot. */
    transport: text('transport'),
    receiveId: text('receive_id'),
    /** The network's name for the device (devEUI, NB-IoT platform device id). */
    platformDeviceId: text('platform_device_id'),
    state: text('state').notNull().default('Waitting'),
    /** The device's own words with its answer. */
    detail: text('detail'),
    /** Why the last send did not leave: a result code and its parameters, translated when shown. */
    failureCode: integer('failure_code'),
    failureParams: jsonb('failure_params').$type<Record<string, string | number>>(),
    staffId: text('staff_id'),
    staffName: text('staff_name'),
    /** When the scheduler looks at it next; null once the command is final. */
    nextCheckAt: tz('next_check_at'),
    finishedAt: tz('finished_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('device_command_due_idx').on(t.nextCheckAt).where(sql`${t.nextCheckAt} is not null`),
    index('device_command_device_idx').on(t.deviceId, t.createdAt),
    index('device_command_receive_idx').on(t.deviceId, t.receiveId),
    index('device_command_created_idx').on(t.createdAt),
  ],
);
export type DeviceCommandRecord = typeof deviceCommand.$inferSelect;
