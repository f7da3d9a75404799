import { timestamp } from 'drizzle-orm/pg-core';

/** Timestamps with time zone, handed to the code as Date. */
export const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const createdAt = () => tz('created_at').notNull().defaultNow();
export const updatedAt = () => tz('updated_at').notNull().defaultNow();
