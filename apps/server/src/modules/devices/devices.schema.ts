import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../../db/columns.ts';

/**
 * Operation unit (spec §3): a tree of the places devices belong to. `stationId` is the installation's
 * station, set by the service; `typeId` names the unit's type.
 */
export const operationUnit = pgTable(
  'operation_unit',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    name: text('name').notNull(),
    menuName: text('menu_name'),
    parentId: text('parent_id'),
    sortIndex: integer('sort_index').notNull().default(0),
    stationId: text('station_id').notNull(),
    typeId: text('type_id'),
    description: text('description'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('operation_unit_parent_idx').on(t.parentId),
    index('operation_unit_station_idx').on(t.stationId),
  ],
);
export type OperationUnitRow = typeof operationUnit.$inferSelect;
