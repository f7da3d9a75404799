import { sql } from 'drizzle-orm';
import { boolean, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../../db/columns.ts';

/** System parameter (spec §3): feature flags and settings read by the console and the server. */
export const param = pgTable(
  'param',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    name: text('name').notNull(),
    valType: text('val_type').notNull().default('string'),
    val: text('val'),
    cls: text('cls'),
    defVal: text('def_val'),
    desc: text('description'),
    editable: boolean('editable').notNull().default(true),
    group: text('param_group'),
    /**
     * Readable by every signed-in user (params/getByName, getMap) without param.read: what the console needs
     * before permissions load. Fixed for the built-in parameters, chosen for the others.
     */
    isPublic: boolean('is_public').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('param_name_uq').on(t.name)],
);
