import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { pageQuery, pageResult } from '../paging.ts';
import { Permission } from '../permissions.ts';
import { searchTime } from '../validation/formats.ts';

/** Search of both logs: a time range (end after start, at most a year for exports), user, method. */
export const logSearch = z.object({
  startTime: searchTime,
  endTime: searchTime,
  userName: z.string().trim().max(64).optional(),
});

export const opLogRow = z.object({
  id: z.number().int(),
  ipAddr: z.string().nullable(),
  methodArgs: z.string().nullable(),
  methodDesc: z.string(),
  methodName: z.string(),
  methodType: z.string(),
  operateTime: z.string(),
  url: z.string(),
  userId: z.string().nullable(),
  userName: z.string().nullable(),
  resultCode: z.number().int().nullable(),
});
export type OpLogRow = z.infer<typeof opLogRow>;

const opLogSearch = logSearch.extend({ methodName: z.string().trim().max(128).optional() });

export const queryOpLogPage = defineEndpoint({
  method: 'GET',
  path: '/oplog/queryPage',
  access: Permission.OpLogRead,
  module: 'admin',
  summary: 'Operation log, newest first, paged',
  query: pageQuery.extend(opLogSearch.shape),
  response: pageResult(opLogRow),
});

/** Exports answer CSV (UTF-8 with BOM) rather than the envelope. */
export const exportOpLog = defineEndpoint({
  method: 'GET',
  path: '/oplog/export',
  access: Permission.OpLogExport,
  module: 'admin',
  summary: 'Operation log of a time range (at most a year) as CSV',
  query: opLogSearch,
  response: z.string(),
  fileAnswer: true,
  mutating: false,
});

export const loginLogRow = z.object({
  id: z.number().int(),
  userId: z.string(),
  userName: z.string(),
  loginTime: z.string(),
  logoutTime: z.string().nullable(),
  ipAddr: z.string().nullable(),
});
export type LoginLogRow = z.infer<typeof loginLogRow>;

export const queryLoginLogPage = defineEndpoint({
  method: 'GET',
  path: '/loginlog/queryPage',
  access: Permission.LoginLogRead,
  module: 'admin',
  summary: 'Login log, newest first, paged',
  query: pageQuery.extend(logSearch.shape),
  response: pageResult(loginLogRow),
});

export const exportLoginLog = defineEndpoint({
  method: 'GET',
  path: '/loginlog/export',
  access: Permission.LoginLogExport,
  module: 'admin',
  summary: 'Login log of a time range (at most a year) as CSV',
  query: logSearch,
  response: z.string(),
  fileAnswer: true,
  mutating: false,
});

/** Most rows one export may hold; beyond it the answer asks to narrow the filter (spec §8). */
export const EXPORT_MAX_ROWS = 100_000;
