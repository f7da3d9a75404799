import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, tz, updatedAt } from '../../db/columns.ts';
import { device } from '../devices/devices.schema.ts';
import { department, staff } from '../org/org.schema.ts';

/**
 * Fixed authorisation (spec §3): devices given to a staff member or a department (and the departments below
 * it) for a time range or forever, all of them or a list (docs/lock-tasks.md, *Who may open*). Its object is
 * exactly one of `staffId` and `deptId`, so that deleting the staff member or the department deletes it.
 */
export const fixedAuthorization = pgTable(
  'fixed_authorization',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    staffId: text('staff_id').references(() => staff.id, { onDelete: 'cascade' }),
    deptId: text('dept_id').references(() => department.id, { onDelete: 'cascade' }),
    forever: boolean('forever').notNull().default(false),
    startTime: tz('start_time'),
    endTime: tz('end_time'),
    allDevice: boolean('all_device').notNull().default(false),
    createdBy: text('created_by'),
    createdByName: text('created_by_name'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('fixed_authorization_staff_idx').on(t.staffId),
    index('fixed_authorization_dept_idx').on(t.deptId),
    check('fixed_authorization_object_ck', sql`(${t.staffId} is null) <> (${t.deptId} is null)`),
    check(
      'fixed_authorization_time_ck',
      sql`${t.forever} or (${t.startTime} is not null and ${t.endTime} is not null and ${t.startTime} < ${t.endTime})`,
    ),
  ],
);

/** The devices of a fixed authorisation that is not for all devices. */
export const fixedAuthorizationDevice = pgTable(
  'fixed_authorization_device',
  {
    authorizationId: text('authorization_id')
      .notNull()
      .references(() => fixedAuthorization.id, { onDelete: 'cascade' }),
    deviceId: text('device_id')
      .notNull()
      .references(() => device.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ name: 'fixed_authorization_device_pk', columns: [t.authorizationId, t.deviceId] }),
    index('fixed_authorization_device_device_idx').on(t.deviceId),
  ],
);
