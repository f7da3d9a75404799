import { sql } from 'drizzle-orm';
import { check, integer, numeric, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../../db/columns.ts';

/** A range bound, exact to two decimals as the forms allow, handed to the code as a number. */
const bound = (name: string) => numeric(name, { precision: 12, scale: 2, mode: 'number' }).notNull();

/**
 * Power (battery) level (spec §3): battery from startValue (included) to endValue (excluded) in %, the
 * days a lock is expected to keep working from it, and the run state it stands for (normal, lowPower).
 * Levels do not overlap (the levels service refuses it).
 */
export const powerLevel = pgTable(
  'power_level',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    level: integer('level').notNull(),
    startValue: bound('start_value'),
    endValue: bound('end_value'),
    availableDays: integer('available_days').notNull().default(0),
    state: text('state').notNull().default('normal'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('power_level_level_uq').on(t.level),
    check('power_level_range_ck', sql`${t.startValue} < ${t.endValue}`),
  ],
);

/**
 * Damage level (spec §3): the damage value (docs/alarms.md) from startValue (included) to endValue
 * (excluded), and what the level means. Levels do not overlap (the levels service refuses it).
 */
export const damageLevel = pgTable(
  'damage_level',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    level: integer('level').notNull(),
    description: text('description'),
    startValue: bound('start_value'),
    endValue: bound('end_value'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('damage_level_level_uq').on(t.level),
    check('damage_level_range_ck', sql`${t.startValue} < ${t.endValue}`),
  ],
);
