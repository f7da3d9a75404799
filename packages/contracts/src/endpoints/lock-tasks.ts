import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { pageQuery, pageResult } from '../paging.ts';
import { Permission } from '../permissions.ts';
import {
  AUDIT_FLAGS,
  LOCK_TASK_STATES,
  lockTaskForm,
  TASK_FINISH_FLAGS,
} from '../validation/lock-task-forms.ts';
import { nameText } from '../validation/org-forms.ts';
import { OPEN_REFUSALS } from './operation-records.ts';

const id = z.string().min(1).max(64);

/** Where a task came from: written in the console, or sent by a client app. */
export const TASK_SOURCES = ['console', 'client'] as const;
export type TaskSource = (typeof TASK_SOURCES)[number];

/**
 * What the signed-in user may do with a lock task now, decided by the server with the task machine
 * (docs/lock-tasks.md); the permission keys of the calls are checked besides.
 */
export const lockTaskAbilities = z.object({
  update: z.boolean(),
  submit: z.boolean(),
  audit: z.boolean(),
  cancel: z.boolean(),
  forceEnd: z.boolean(),
  delete: z.boolean(),
});
export type LockTaskAbilities = z.infer<typeof lockTaskAbilities>;

const named = z.object({ id: z.string(), name: z.string() });

/** An operation item (spec §3 task device): the device, the key where keys are used, when each was done. */
export const lockTaskItemRow = z.object({
  id: z.string(),
  deviceId: z.string(),
  deviceName: z.string(),
  keyId: z.string().nullable(),
  keyName: z.string().nullable(),
  /** When the task was downloaded to the key for this item (toKeyTime). */
  toKeyTime: z.string().nullable(),
  /** Why the last download to a key left this item out (the opening decision's reason). */
  downloadRefusal: z.enum(OPEN_REFUSALS).nullable(),
  /** When the operation record of this item came in: the item is done. */
  uploadTime: z.string().nullable(),
});
export type LockTaskItemRow = z.infer<typeof lockTaskItemRow>;

/** A lock task (spec §3) as lists and its detail show it. */
export const lockTaskRow = z.object({
  id: z.string(),
  name: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  state: z.enum(LOCK_TASK_STATES),
  authFlag: z.enum(AUDIT_FLAGS).nullable(),
  /** The auditor's reason of a rejection, or the reason a task was ended early. */
  reason: z.string().nullable(),
  auditedByName: z.string().nullable(),
  auditedAt: z.string().nullable(),
  auditDept: named.nullable(),
  auditor: named.nullable(),
  operateDept: named.nullable(),
  operators: z.array(named),
  allDevice: z.boolean(),
  items: z.array(lockTaskItemRow),
  finishFlag: z.enum(TASK_FINISH_FLAGS).nullable(),
  finishTime: z.string().nullable(),
  taskSource: z.enum(TASK_SOURCES),
  creatorId: z.string(),
  creatorName: z.string(),
  createdAt: z.string(),
  abilities: lockTaskAbilities,
});
export type LockTaskRow = z.infer<typeof lockTaskRow>;

/**
 * Which tasks a list shows: all; the ones I created; the ones waiting for my audit (my to-do); the ones I
 * am to carry out (in their operator team); the ones I audited (done).
 */
export const LOCK_TASK_SCOPES = ['all', 'mine', 'toAudit', 'assigned', 'audited'] as const;
export type LockTaskScope = (typeof LOCK_TASK_SCOPES)[number];

export const queryLockTaskPage = defineEndpoint({
  method: 'GET',
  path: '/lockTask/queryPage',
  access: Permission.LockTaskRead,
  module: 'tasks',
  summary: 'Lock tasks, newest first unless sorted, searchable by name, state and scope',
  query: pageQuery.extend({
    keyword: z.string().trim().max(64).optional(),
    state: z.enum(LOCK_TASK_STATES).optional(),
    scope: z.enum(LOCK_TASK_SCOPES).optional(),
  }),
  response: pageResult(lockTaskRow),
});

/** Most tasks Home lists for today. */
export const TODAY_TASKS_MAX = 50;

/** Today's lock tasks for Home (spec §7 `/fp/getTodayTask`): approved tasks whose time includes today. */
export const todayTask = z.object({ total: z.number().int(), rows: z.array(lockTaskRow) });
export type TodayTask = z.infer<typeof todayTask>;

export const getTodayTask = defineEndpoint({
  method: 'GET',
  path: '/fp/getTodayTask',
  access: Permission.LockTaskRead,
  module: 'tasks',
  summary:
    'Approved lock tasks whose time includes today (console day, UTC+8), starting first, at most `limit`',
  query: z.object({ limit: z.coerce.number().int().min(1).max(TODAY_TASKS_MAX).default(10) }),
  response: todayTask,
});

export const getLockTask = defineEndpoint({
  method: 'GET',
  path: '/lockTask/getById',
  access: Permission.LockTaskRead,
  module: 'tasks',
  summary: 'One lock task with its operators and operation items',
  query: z.object({ id }),
  response: lockTaskRow,
});

export const saveLockTask = defineEndpoint({
  method: 'POST',
  path: '/lockTask/save',
  access: Permission.LockTaskCreate,
  module: 'tasks',
  summary: 'Create a lock task (state New); the end must be later than the start and not before now',
  body: lockTaskForm(),
  response: z.object({ id: z.string() }),
});

export const updateLockTask = defineEndpoint({
  method: 'POST',
  path: '/lockTask/update',
  access: Permission.LockTaskUpdate,
  module: 'tasks',
  summary: "Change one's own lock task; an approved one goes back to audit when TaskNeedAudit is on",
  body: lockTaskForm().safeExtend({ id }),
  response: z.null(),
});

export const submitLockTask = defineEndpoint({
  method: 'GET',
  path: '/lockTask/submit',
  access: Permission.LockTaskUpdate,
  module: 'tasks',
  summary: "Hand in one's own new task: to its auditor when TaskNeedAudit is on, else it is approved",
  query: z.object({ id }),
  response: z.null(),
  mutating: true,
});

export const passLockTask = defineEndpoint({
  method: 'GET',
  path: '/lockTask/pass',
  access: Permission.LockTaskAudit,
  module: 'tasks',
  summary: 'Pass a lock task (its auditor, not its creator)',
  query: z.object({ id }),
  response: z.null(),
  mutating: true,
});

/** A reason given with a rejection or an early end. */
export const lockTaskReasonForm = z.object({ id, reason: nameText(255) });
export type LockTaskReasonForm = z.infer<typeof lockTaskReasonForm>;

export const rejectLockTask = defineEndpoint({
  method: 'POST',
  path: '/lockTask/reject',
  access: Permission.LockTaskAudit,
  module: 'tasks',
  summary: 'Reject a lock task back to its creator with a reason (its auditor, not its creator)',
  body: lockTaskReasonForm,
  response: z.null(),
});

export const cancelLockTask = defineEndpoint({
  method: 'GET',
  path: '/lockTask/cancel',
  access: Permission.LockTaskUpdate,
  module: 'tasks',
  summary: "Withdraw one's own task that has not started",
  query: z.object({ id }),
  response: z.null(),
  mutating: true,
});

export const forceEndLockTask = defineEndpoint({
  method: 'POST',
  path: '/lockTask/forceEnd',
  access: Permission.LockTaskForceEnd,
  module: 'tasks',
  summary: 'End an approved lock task early, with a reason',
  body: lockTaskReasonForm,
  response: z.null(),
});

export const deleteLockTask = defineEndpoint({
  method: 'GET',
  path: '/lockTask/del',
  access: Permission.LockTaskDelete,
  module: 'tasks',
  summary: "Delete one's own task that was never approved (New) or was withdrawn (Cancel)",
  query: z.object({ id }),
  response: z.null(),
  mutating: true,
});
