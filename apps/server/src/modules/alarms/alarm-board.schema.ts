import { sql } from 'drizzle-orm';
import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, tz } from '../../db/columns.ts';
import { station } from '../org/org.schema.ts';

/**
 * A display link of the control-room board (docs/alarms.md): one station's open alarms for a wall screen.
 * Its one-time code is stored as a SHA-256 only, with its expiry, and cleared once exchanged; a new code
 * replaces the one before. A revoked link stays listed, and ends its display sessions.
 */
export const alarmBoardLink = pgTable(
  'alarm_board_link',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    stationId: text('station_id')
      .notNull()
      .references(() => station.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdBy: text('created_by'),
    createdByName: text('created_by_name'),
    createdAt: createdAt(),
    revokedAt: tz('revoked_at'),
    codeHash: text('code_hash'),
    codeExpiresAt: tz('code_expires_at'),
    lastUsedAt: tz('last_used_at'),
    lastUsedIp: text('last_used_ip'),
  },
  (t) => [
    index('alarm_board_link_created_idx').on(t.createdAt, t.id),
    index('alarm_board_link_code_idx').on(t.codeHash),
  ],
);

/** Display sessions of the board: the SHA-256 of the opaque token, for one link (and so one station). */
export const alarmBoardSession = pgTable(
  'alarm_board_session',
  {
    tokenHash: text('token_hash').primaryKey(),
    linkId: text('link_id')
      .notNull()
      .references(() => alarmBoardLink.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    ipAddr: text('ip_addr'),
  },
  (t) => [index('alarm_board_session_link_idx').on(t.linkId)],
);
