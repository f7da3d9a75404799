/**
 * Operation records (spec §3 Operation record): every opening and closing of a lock the system knows of —
 * asked in the console (remote, through a device command), uploaded by a client app or key, or reported by
 * an IoT lock — with who, when, under which task or authorisation, and how it ended.
 */
import { z } from 'zod';
import { ResultCode } from '../codes.ts';
import { defineEndpoint } from '../endpoint.ts';
import { pageQuery, pageResult } from '../paging.ts';
import { Permission } from '../permissions.ts';
import { searchTime } from '../validation/formats.ts';
import { OPEN_METHODS } from '../validation/lock-task-forms.ts';
import { COMMAND_STATES } from './commands.ts';

const id = z.string().min(1).max(64);

/**
 * Why an opening is refused (the "who may open" decision, docs/lock-tasks.md): recorded with the attempt
 * and answered with its own result code.
 */
export const OPEN_REFUSALS = [
  'staffUnknown',
  'staffDisabled',
  'keyRequired',
  'keyUnusable',
  'keyNotHeld',
  'deviceTypeNotGranted',
  'taskNotApproved',
  'outsideTaskWindow',
  'notAuthorized',
] as const;
export type OpenRefusal = (typeof OPEN_REFUSALS)[number];

/** The result code a refusal is answered with: its message tells the operator why. */
export const OPEN_REFUSAL_CODES = {
  staffUnknown: ResultCode.OpenStaffUnknown,
  staffDisabled: ResultCode.OpenStaffDisabled,
  keyRequired: ResultCode.OpenKeyRequired,
  keyUnusable: ResultCode.OpenKeyUnusable,
  keyNotHeld: ResultCode.OpenKeyNotHeld,
  deviceTypeNotGranted: ResultCode.OpenDeviceTypeNotGranted,
  taskNotApproved: ResultCode.OpenTaskNotApproved,
  outsideTaskWindow: ResultCode.OpenOutsideTaskWindow,
  notAuthorized: ResultCode.OpenNotAuthorized,
} as const satisfies Record<OpenRefusal, ResultCode>;

/** What was done to the lock. */
export const OPERATION_ACTIONS = ['open', 'close'] as const;
export type OperationAction = (typeof OPERATION_ACTIONS)[number];

/** Where the record comes from: the console (remote), a client app or key upload, or the lock itself. */
export const OPERATION_SOURCES = ['console', 'client', 'device'] as const;
export type OperationSource = (typeof OPERATION_SOURCES)[number];

/**
 * How it ended: refused by the decision; sent to the lock and not yet answered; done; not done (the lock
 * refused, or the command failed or expired); reported by the lock on its own (an opening nobody asked the
 * console for).
 */
export const OPERATION_RESULTS = ['refused', 'sent', 'succeeded', 'failed', 'reported'] as const;
export type OperationResult = (typeof OPERATION_RESULTS)[number];

/** An operation record as lists, exports and the live topic show it. */
export const operationRecordRow = z.object({
  id: z.string(),
  deviceId: z.string().nullable(),
  deviceName: z.string(),
  deviceCode: z.string().nullable(),
  staffId: z.string().nullable(),
  staffName: z.string().nullable(),
  keyId: z.string().nullable(),
  keyName: z.string().nullable(),
  lockCode: z.string().nullable(),
  taskId: z.string().nullable(),
  taskName: z.string().nullable(),
  authorizationId: z.string().nullable(),
  action: z.enum(OPERATION_ACTIONS),
  /** null for what a lock reported on its own (it does not say how it was opened). */
  opMethod: z.enum(OPEN_METHODS).nullable(),
  source: z.enum(OPERATION_SOURCES),
  result: z.enum(OPERATION_RESULTS),
  refusal: z.enum(OPEN_REFUSALS).nullable(),
  /** The device command of a remote operation, and its state as last known. */
  commandId: z.string().nullable(),
  commandState: z.enum(COMMAND_STATES).nullable(),
  /**
   * For an opening the lock reported: whether a task or an authorisation in force then covered the lock (an
   * uncovered opening raises an alarm). null for the other records.
   */
  covered: z.boolean().nullable(),
  /** The live photo a client took, as a file-store id. */
  photoFileId: z.string().nullable(),
  operateTime: z.string(),
  /** When a client's record reached the server; null for records the server made. */
  uploadTime: z.string().nullable(),
  stationId: z.string(),
});
export type OperationRecordRow = z.infer<typeof operationRecordRow>;

/** Operation record search: a time range over the operation time, the device, who, how it ended. */
export const operationRecordSearch = z.object({
  startTime: searchTime,
  endTime: searchTime,
  deviceId: id.optional(),
  taskId: id.optional(),
  /** device name or code, staff name, task name */
  keyword: z.string().trim().max(64).optional(),
  action: z.enum(OPERATION_ACTIONS).optional(),
  result: z.enum(OPERATION_RESULTS).optional(),
  source: z.enum(OPERATION_SOURCES).optional(),
});
export type OperationRecordSearch = z.infer<typeof operationRecordSearch>;

export const queryOperationRecordPage = defineEndpoint({
  method: 'GET',
  path: '/operationRecord/queryPage',
  access: Permission.OperationRecordRead,
  module: 'tasks',
  summary:
    'Operation records, newest first unless sorted, searchable by time, device, staff, task and result',
  query: pageQuery.extend(operationRecordSearch.shape),
  response: pageResult(operationRecordRow),
});

/** Exports answer CSV (UTF-8 with BOM) rather than the envelope; the time range is required, at most a year. */
export const exportOperationRecords = defineEndpoint({
  method: 'GET',
  path: '/operationRecord/export',
  access: Permission.OperationRecordExport,
  module: 'tasks',
  summary: 'Operation records of a time range (at most a year) as CSV, newest first',
  query: operationRecordSearch,
  response: z.string(),
  fileAnswer: true,
  mutating: false,
});

export const getOperationPhoto = defineEndpoint({
  method: 'GET',
  path: '/operationRecord/photo',
  access: Permission.OperationRecordRead,
  module: 'tasks',
  summary: 'The live photo of an operation record (PNG or JPEG file); 404 when it has none',
  query: z.object({ id }),
  response: z.string(),
  fileAnswer: true,
});

/** Most operation records Home lists for today. */
export const TODAY_OPERATIONS_MAX = 50;

/** Today's device operations for Home (spec §7 `/fp/getTodayDeviceOp`): how many, and the newest. */
export const todayDeviceOp = z.object({ total: z.number().int(), rows: z.array(operationRecordRow) });
export type TodayDeviceOp = z.infer<typeof todayDeviceOp>;

export const getTodayDeviceOp = defineEndpoint({
  method: 'GET',
  path: '/fp/getTodayDeviceOp',
  access: Permission.OperationRecordRead,
  module: 'tasks',
  summary: "Today's operation records (console day, UTC+8), newest first, at most `limit`",
  query: z.object({ limit: z.coerce.number().int().min(1).max(TODAY_OPERATIONS_MAX).default(10) }),
  response: todayDeviceOp,
});

/** A remote operation: the device; the staff member is the session's. */
export const remoteOperationForm = z.object({ deviceId: id });
export type RemoteOperationForm = z.infer<typeof remoteOperationForm>;

export const remoteOpenDevice = defineEndpoint({
  method: 'POST',
  path: '/device/remoteOpen',
  access: Permission.DeviceOpen,
  module: 'tasks',
  summary:
    'Open an IoT lock remotely: allowed only under an approved task in its window or a fixed authorisation ' +
    'in force for the signed-in staff member; the attempt is recorded either way, a refusal answered with its reason',
  body: remoteOperationForm,
  response: operationRecordRow,
});

export const remoteCloseDevice = defineEndpoint({
  method: 'POST',
  path: '/device/remoteClose',
  access: Permission.DeviceOpen,
  module: 'tasks',
  summary: "Close (lock) an IoT lock remotely: needs the device type's operation grant; recorded",
  body: remoteOperationForm,
  response: operationRecordRow,
});
