import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, tz } from '../../db/columns.ts';

/** Every mail the system sends; with no SMTP server configured the mail is kept here for administrators. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    state: text('state').notNull().default('pending'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    sentAt: tz('sent_at'),
  },
  (t) => [index('mail_outbox_created_idx').on(t.createdAt)],
);
