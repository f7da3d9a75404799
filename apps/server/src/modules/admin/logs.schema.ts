import { bigint, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { tz } from '../../db/columns.ts';

/** Operation log (spec §3): one row per mutating call. */
export const opLog = pgTable(
  'op_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    ipAddr: text('ip_addr'),
    methodArgs: text('method_args'),
    methodDesc: text('method_desc').notNull(),
    methodName: text('method_name').notNull(),
    methodType: text('method_type').notNull(),
    operateTime: tz('operate_time').notNull().defaultNow(),
    url: text('url').notNull(),
    userId: text('user_id'),
    userName: text('user_name'),
    resultCode: integer('result_code'),
  },
  (t) => [
    index('op_log_operate_time_idx').on(t.operateTime),
    index('op_log_user_time_idx').on(t.userId, t.operateTime),
  ],
);

/** Login log (spec §3): a row per sign-in, closed by sign-out. */
export const loginLog = pgTable(
  'login_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text('user_id').notNull(),
    userName: text('user_name').notNull(),
    loginTime: tz('login_time').notNull().defaultNow(),
    logoutTime: tz('logout_time'),
    ipAddr: text('ip_addr'),
    sessionHash: text('session_hash'),
  },
  (t) => [
    index('login_log_login_time_idx').on(t.loginTime),
    index('login_log_user_time_idx').on(t.userId, t.loginTime),
    index('login_log_session_idx').on(t.sessionHash),
  ],
);
