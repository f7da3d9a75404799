import type {
  AuditFlag,
  ClientState,
  ClientType,
  CommandState,
  LockTaskState,
  OpenMethod,
  OpenRefusal,
  OperationAction,
  OperationResult,
  OperationSource,
  TaskFinishFlag,
  TaskSource,
} from '@uiot/contracts';
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tz, updatedAt } from '../../db/columns.ts';
import { device, lockKey } from '../devices/devices.schema.ts';
import { department, staff } from '../org/org.schema.ts';
import type { AuditScope } from './audit-scope.ts';

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

/**
 * Lock task (spec §3): who may open which locks, when, once approved (docs/lock-tasks.md). The audit fields
 * keep the last audit: its flag, its reason (a rejection's; `reason` is also an early end's), who and when.
 */
export const lockTask = pgTable(
  'lock_task',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    name: text('name').notNull(),
    startTime: tz('start_time').notNull(),
    endTime: tz('end_time').notNull(),
    state: text('state').$type<LockTaskState>().notNull().default('New'),
    authFlag: text('auth_flag').$type<AuditFlag>(),
    reason: text('reason'),
    /** The audit team and, optionally, the audit person in it. */
    auditDeptId: text('audit_dept_id').references(() => department.id, { onDelete: 'set null' }),
    auditorId: text('auditor_id').references(() => staff.id, { onDelete: 'set null' }),
    /** Whom the audit was left to (audit-scope.ts): kept when the person or team named is deleted. */
    auditScope: text('audit_scope').$type<AuditScope>().notNull().default('any'),
    /** Who passed or rejected it last, and when. */
    auditedBy: text('audited_by'),
    auditedByName: text('audited_by_name'),
    auditedAt: tz('audited_at'),
    /** When it was first approved (it then may have granted openings): such a task is never deleted. */
    approvedAt: tz('approved_at'),
    operateDeptId: text('operate_dept_id').references(() => department.id, { onDelete: 'set null' }),
    allDevice: boolean('all_device').notNull().default(false),
    finishFlag: text('finish_flag').$type<TaskFinishFlag>(),
    finishTime: tz('finish_time'),
    taskSource: text('task_source').$type<TaskSource>().notNull().default('console'),
    creatorId: text('creator_id').notNull(),
    creatorName: text('creator_name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('lock_task_state_idx').on(t.state),
    index('lock_task_creator_idx').on(t.creatorId),
    index('lock_task_end_idx').on(t.endTime),
    check('lock_task_time_ck', sql`${t.startTime} < ${t.endTime}`),
  ],
);

/** The operator team of a task: the staff it is for. */
export const lockTaskOperator = pgTable(
  'lock_task_operator',
  {
    taskId: text('task_id')
      .notNull()
      .references(() => lockTask.id, { onDelete: 'cascade' }),
    staffId: text('staff_id')
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ name: 'lock_task_operator_pk', columns: [t.taskId, t.staffId] }),
    index('lock_task_operator_staff_idx').on(t.staffId),
  ],
);

/** An operation item (spec §3 task device): a device, the key to use where keys are used, when it was done. */
export const lockTaskItem = pgTable(
  'lock_task_item',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    taskId: text('task_id')
      .notNull()
      .references(() => lockTask.id, { onDelete: 'cascade' }),
    deviceId: text('device_id')
      .notNull()
      .references(() => device.id, { onDelete: 'restrict' }),
    keyId: text('key_id').references(() => lockKey.id, { onDelete: 'set null' }),
    sortIndex: integer('sort_index').notNull().default(0),
    toKeyTime: tz('to_key_time'),
    /**
     * Why the last download of the task to a key left this item out (the opening decision's reason); null
     * when it was downloaded (toKeyTime) or never asked for.
     */
    downloadRefusal: text('download_refusal').$type<OpenRefusal>(),
    uploadTime: tz('upload_time'),
  },
  (t) => [index('lock_task_item_task_idx').on(t.taskId), index('lock_task_item_device_idx').on(t.deviceId)],
);

/**
 * Operation record (spec §3): an opening or closing of a lock, asked in the console, uploaded by a client or
 * reported by the lock. It names what it refers to by id and keeps their names as they were, so that a
 * record outlives its device, staff member, key and task (records are evidence, never rewritten by a
 * rename or a deletion).
 */
export const operationRecord = pgTable(
  'operation_record',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    stationId: text('station_id').notNull(),
    deviceId: text('device_id'),
    deviceName: text('device_name').notNull(),
    deviceCode: text('device_code'),
    staffId: text('staff_id'),
    staffName: text('staff_name'),
    keyId: text('key_id'),
    keyName: text('key_name'),
    lockCode: text('lock_code'),
    taskId: text('task_id'),
    taskName: text('task_name'),
    authorizationId: text('authorization_id'),
    action: text('action').$type<OperationAction>().notNull(),
    opMethod: text('op_method').$type<OpenMethod>(),
    source: text('source').$type<OperationSource>().notNull(),
    result: text('result').$type<OperationResult>().notNull(),
    refusal: text('refusal').$type<OpenRefusal>(),
    commandId: text('command_id'),
    commandState: text('command_state').$type<CommandState>(),
    covered: boolean('covered'),
    photoFileId: text('photo_file_id'),
    /** The id a client gave its record: an upload sent again is stored once. */
    clientRecordId: text('client_record_id'),
    operateTime: tz('operate_time').notNull(),
    uploadTime: tz('upload_time'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('operation_record_time_idx').on(t.operateTime, t.id),
    index('operation_record_device_idx').on(t.deviceId, t.operateTime),
    index('operation_record_task_idx').on(t.taskId),
    index('operation_record_command_idx').on(t.commandId).where(sql`${t.commandId} is not null`),
    uniqueIndex('operation_record_client_key')
      .on(t.clientRecordId)
      .where(sql`${t.clientRecordId} is not null`),
  ],
);
export type OperationRecordRecord = typeof operationRecord.$inferSelect;

/**
 * A mobile or PC client (spec §3 Client): registered with the code it shows, reviewed (passed or rejected
 * with a description) in /sys/client, bound to the staff member who signed in on it last.
 */
export const appClient = pgTable(
  'app_client',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    /** The client's own identifier (its device's), unique. */
    clientId: text('client_id').notNull(),
    clientType: text('client_type').$type<ClientType>().notNull(),
    name: text('name').notNull(),
    telNo: text('tel_no'),
    registCode: text('regist_code').notNull(),
    state: text('state').$type<ClientState>().notNull().default('pending'),
    requestTime: tz('request_time').notNull(),
    registTime: tz('regist_time'),
    reviewerId: text('reviewer_id'),
    reviewerName: text('reviewer_name'),
    resultDesc: text('result_desc'),
    staffId: text('staff_id').references(() => staff.id, { onDelete: 'set null' }),
    staffName: text('staff_name'),
    /** The last task download. */
    sendTime: tz('send_time'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('app_client_client_id_key').on(t.clientId), index('app_client_state_idx').on(t.state)],
);
