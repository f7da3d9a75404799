import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, tz } from '../../db/columns.ts';

/** The one active self-registration code of an email address (stored hashed, single use). */
export const verificationCode = pgTable('verification_code', {
  email: text('email').primaryKey(),
  codeHash: text('code_hash').notNull(),
  sentAt: tz('sent_at').notNull(),
  expiresAt: tz('expires_at').notNull(),
  attempts: integer('attempts').notNull().default(0),
  usedAt: tz('used_at'),
});

/** System messages (spec §3): user registrations waiting for an administrator, and their outcome. */
export const sysMessage = pgTable(
  'sys_message',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    messageType: text('message_type').notNull(),
    title: text('title').notNull(),
    content: text('content'),
    name: text('name'),
    email: text('email'),
    staffType: integer('staff_type'),
    staffId: text('staff_id'),
    operated: integer('operated').notNull().default(0),
    operator: text('operator'),
    result: text('result'),
    remark: text('remark'),
    createdAt: createdAt(),
    operatedAt: tz('operated_at'),
  },
  (t) => [index('sys_message_type_created_idx').on(t.messageType, t.createdAt)],
);
