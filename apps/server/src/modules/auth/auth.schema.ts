import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, tz } from '../../db/columns.ts';
import { staff } from '../org/org.schema.ts';

/** Sign-in sessions: only the SHA-256 of the opaque token is stored. */
export const session = pgTable(
  'session',
  {
    tokenHash: text('token_hash').primaryKey(),
    staffId: text('staff_id')
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: tz('last_seen_at').notNull(),
    idleExpiresAt: tz('idle_expires_at').notNull(),
    expiresAt: tz('expires_at').notNull(),
    revokedAt: tz('revoked_at'),
    ipAddr: text('ip_addr'),
  },
  (t) => [index('session_staff_idx').on(t.staffId)],
);

/** Failed sign-in counters per account name and per address (keys `account:<name>`, `address:<ip>`). */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lastFailureAt: tz('last_failure_at'),
  lockedUntil: tz('locked_until'),
});
