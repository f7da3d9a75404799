import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tz, updatedAt } from '../../db/columns.ts';

export const station = pgTable('station', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

/** Department tree (spec §3): deptType Electric (operator) or Builder (contractor). */
export const department = pgTable(
  'department',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    name: text('name').notNull(),
    code: text('code'),
    deptType: text('dept_type').notNull().default('Electric'),
    description: text('description'),
    idxNo: integer('idx_no').notNull().default(0),
    parentId: text('parent_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('department_parent_idx').on(t.parentId)],
);

/** Role (spec §3): roleType JobLeader, JobSignature, JobApprover, JobGuarder. */
export const role = pgTable('role', {
  id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
  name: text('name').notNull(),
  roleType: text('role_type'),
  description: text('description'),
  deptId: text('dept_id'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Permission keys granted to a subject: a role, a staff member or a department (spec §6). A staff
 * member holds the keys of its roles, its own and those of its department and the departments above.
 * Role `admin` holds every key without rows here.
 */
export const permissionGrant = pgTable(
  'permission_grant',
  {
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id').notNull(),
    permission: text('permission').notNull(),
  },
  (t) => [primaryKey({ name: 'permission_grant_pk', columns: [t.subjectType, t.subjectId, t.permission] })],
);

/**
 * Staff (spec §3). `name` is the sign-in name (StaffID for MTR staff, HKID for contractors); the built-in
 * administrator has id `admin`.
 */
export const staff = pgTable(
  'staff',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    name: text('name').notNull(),
    deptId: text('dept_id').references(() => department.id),
    age: integer('age'),
    sex: integer('sex'),
    passwordHash: text('password_hash').notNull(),
    email: text('email'),
    telNo: text('tel_no'),
    address: text('address'),
    notes: text('notes'),
    faxNo: text('fax_no'),
    rfidCode: text('rfid_code'),
    staffType: integer('staff_type').notNull().default(1),
    status: text('status').notNull().default('activated'),
    signature: text('signature'),
    avatar: text('avatar'),
    /** True until the user has set a password of their own (first sign-in, after a reset). */
    mustChangePassword: boolean('must_change_password').notNull().default(true),
    passwordChangedAt: tz('password_changed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('staff_name_lower_uq').on(sql`lower(${t.name})`), index('staff_dept_idx').on(t.deptId)],
);

export const staffRole = pgTable(
  'staff_role',
  {
    staffId: text('staff_id')
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    roleId: text('role_id')
      .notNull()
      .references(() => role.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ name: 'staff_role_pk', columns: [t.staffId, t.roleId] }),
    index('staff_role_role_idx').on(t.roleId),
  ],
);
