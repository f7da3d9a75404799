import type {
  AlarmSeverity,
  AlarmState,
  ClearMode,
  ConditionType,
  LogicType,
  NoticeChannel,
  NoticeOccasion,
  NoticeState,
  PropOrigin,
  PropValueType,
  RecipientKind,
  RuleType,
} from '@uiot/contracts';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tz, updatedAt } from '../../db/columns.ts';
import { device, deviceType } from '../devices/devices.schema.ts';

/**
 * The properties a device type reports, offered by the warn rule editor: the protocol's known fields
 * (`builtIn`, Master) and what the operator names (Extension properties of attached devices). Codes are
 * unique per type and origin, whatever their case.
 */
export const deviceProperty = pgTable(
  'device_property',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    deviceTypeId: text('device_type_id')
      .notNull()
      .references(() => deviceType.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    name: text('name').notNull(),
    origin: text('origin').$type<PropOrigin>().notNull(),
    valueType: text('value_type').$type<PropValueType>().notNull(),
    unit: text('unit'),
    builtIn: boolean('built_in').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('device_property_code_key').on(t.deviceTypeId, t.origin, sql`lower(${t.code})`)],
);
export type DevicePropertyRecord = typeof deviceProperty.$inferSelect;

/** Warn rule (spec §3) of one device type; beyond the spec: severity, clear condition, enabled. */
export const warnRule = pgTable(
  'warn_rule',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    deviceTypeId: text('device_type_id')
      .notNull()
      .references(() => deviceType.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    formatMsg: text('format_msg').notNull(),
    ruleType: text('rule_type').$type<RuleType>().notNull(),
    logicType: text('logic_type').$type<LogicType>().notNull(),
    /** Seconds the condition must hold before a Delay rule raises. */
    delayInterval: integer('delay_interval'),
    resend: boolean('resend').notNull().default(false),
    /** Seconds between reminders while the alarm stays open. */
    resendInterval: integer('resend_interval'),
    smsNotice: boolean('sms_notice').notNull().default(false),
    msgNotice: boolean('msg_notice').notNull().default(false),
    emailNotice: boolean('email_notice').notNull().default(false),
    severity: text('severity').$type<AlarmSeverity>().notNull().default('major'),
    clearMode: text('clear_mode').$type<ClearMode>().notNull().default('inverse'),
    clearLogicType: text('clear_logic_type').$type<LogicType>().notNull().default('AND'),
    enabled: boolean('enabled').notNull().default(true),
    description: text('description'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('warn_rule_device_type_idx').on(t.deviceTypeId),
    uniqueIndex('warn_rule_name_key').on(t.deviceTypeId, sql`lower(${t.name})`),
  ],
);
export type WarnRuleRecord = typeof warnRule.$inferSelect;

/** Rule item (spec §3): one condition; `clear` items make up the rule's own clear condition. */
export const warnRuleItem = pgTable(
  'warn_rule_item',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    ruleId: text('rule_id')
      .notNull()
      .references(() => warnRule.id, { onDelete: 'cascade' }),
    role: text('role').$type<'raise' | 'clear'>().notNull().default('raise'),
    sortIndex: integer('sort_index').notNull().default(0),
    propCode: text('prop_code').notNull(),
    propName: text('prop_name').notNull(),
    propOrigin: text('prop_origin').$type<PropOrigin>().notNull(),
    propVal: text('prop_val').notNull(),
    valType: text('val_type').$type<PropValueType>().notNull(),
    conditionType: text('condition_type').$type<ConditionType>().notNull(),
  },
  (t) => [index('warn_rule_item_rule_idx').on(t.ruleId, t.role, t.sortIndex)],
);
export type WarnRuleItemRecord = typeof warnRuleItem.$inferSelect;

/** Who a rule notifies besides the console: staff members, holders of a role, members of a department. */
export const warnRuleRecipient = pgTable(
  'warn_rule_recipient',
  {
    ruleId: text('rule_id')
      .notNull()
      .references(() => warnRule.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<RecipientKind>().notNull(),
    targetId: text('target_id').notNull(),
  },
  (t) => [primaryKey({ name: 'warn_rule_recipient_pkey', columns: [t.ruleId, t.kind, t.targetId] })],
);

/**
 * Device alarm (spec §3): raised by a rule on a device, open (`Warn`) until it clears by itself (`Normal`)
 * or staff reset it (`Reset`). At most one open alarm per rule and device. The rule's name and severity are
 * kept as they were when it was raised.
 */
export const deviceAlarm = pgTable(
  'device_alarm',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    stationId: text('station_id').notNull(),
    ruleId: text('rule_id').references(() => warnRule.id, { onDelete: 'set null' }),
    ruleName: text('rule_name').notNull(),
    deviceId: text('device_id')
      .notNull()
      .references(() => device.id, { onDelete: 'restrict' }),
    content: text('content').notNull(),
    severity: text('severity').$type<AlarmSeverity>().notNull(),
    propOrigin: text('prop_origin').$type<PropOrigin>(),
    propName: text('prop_name'),
    state: text('state').$type<AlarmState>().notNull().default('Warn'),
    canReset: boolean('can_reset').notNull().default(true),
    warnTime: tz('warn_time').notNull(),
    resetTime: tz('reset_time'),
    resetStaffId: text('reset_staff_id'),
    resetStaffName: text('reset_staff_name'),
    ackTime: tz('ack_time'),
    ackStaffId: text('ack_staff_id'),
    ackStaffName: text('ack_staff_name'),
    lastSentAt: tz('last_sent_at'),
    sendCount: integer('send_count').notNull().default(0),
  },
  (t) => [
    uniqueIndex('device_alarm_open_key').on(t.ruleId, t.deviceId).where(sql`${t.state} = 'Warn'`),
    index('device_alarm_warn_time_idx').on(t.warnTime, t.id),
    index('device_alarm_device_time_idx').on(t.deviceId, t.warnTime),
  ],
);
export type DeviceAlarmRecord = typeof deviceAlarm.$inferSelect;

/**
 * What a rule waits for on a device: the end of a Delay (`delay`, the condition holding since `since`) or
 * the next reminder of an open alarm (`resend`). A due row is claimed with FOR UPDATE SKIP LOCKED and acted
 * on in the transaction that deletes or moves it, so it fires once whichever instance takes it.
 */
export const alarmTimer = pgTable(
  'alarm_timer',
  {
    ruleId: text('rule_id')
      .notNull()
      .references(() => warnRule.id, { onDelete: 'cascade' }),
    deviceId: text('device_id')
      .notNull()
      .references(() => device.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'delay' | 'resend'>().notNull(),
    since: tz('since'),
    dueAt: tz('due_at').notNull(),
    alarmId: text('alarm_id').references(() => deviceAlarm.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ name: 'alarm_timer_pkey', columns: [t.ruleId, t.deviceId, t.kind] }),
    index('alarm_timer_due_idx').on(t.dueAt),
  ],
);
export type AlarmTimerRecord = typeof alarmTimer.$inferSelect;

/**
 * One notification of an alarm to one staff member over one channel (docs/alarms.md, "Notifications"):
 * written in the transaction that raises the alarm or reminds of it, so none is lost, then delivered by the
 * notice pass. `pending` rows are claimed by moving `nextAttemptAt` past the time a delivery may take; a
 * failed attempt sets the next one after a backoff, until `sent` or, after the last attempt, `failed`.
 */
export const alarmNotice = pgTable(
  'alarm_notice',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    alarmId: text('alarm_id')
      .notNull()
      .references(() => deviceAlarm.id, { onDelete: 'cascade' }),
    occasion: text('occasion').$type<NoticeOccasion>().notNull(),
    channel: text('channel').$type<NoticeChannel>().notNull(),
    staffId: text('staff_id').notNull(),
    staffName: text('staff_name').notNull(),
    /** E-mail address, phone number, or (app push) the staff id. */
    address: text('address').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    state: text('state').$type<NoticeState>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: tz('next_attempt_at').notNull(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: tz('sent_at'),
  },
  (t) => [
    index('alarm_notice_due_idx').on(t.nextAttemptAt).where(sql`${t.state} = 'pending'`),
    index('alarm_notice_alarm_idx').on(t.alarmId, t.createdAt),
  ],
);
export type AlarmNoticeRecord = typeof alarmNotice.$inferSelect;

/** Each delivery attempt of a notification, with its result (HTTP status, SMTP answer, error). */
export const alarmNoticeAttempt = pgTable(
  'alarm_notice_attempt',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    noticeId: text('notice_id')
      .notNull()
      .references(() => alarmNotice.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    at: tz('at').notNull(),
    ok: boolean('ok').notNull(),
    detail: text('detail').notNull(),
  },
  (t) => [index('alarm_notice_attempt_notice_idx').on(t.noticeId, t.attempt)],
);
