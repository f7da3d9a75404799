import { z } from 'zod';
import { optionalTime, requiredTime } from './device-formats.ts';
import { nameText, timeRangeProblem } from './org-forms.ts';

/**
 * Lock tasks and fixed authorisations (spec §3 Lock task, Fixed authorization; §4 task state and audit
 * flag): the values both sides share. The lifecycle is docs/lock-tasks.md.
 */

/**
 * Task state (spec §4). `None` is an approved task whose start time has not come yet; `Update` an approved
 * task its creator edited, waiting for the audit of the change (it grants nothing meanwhile).
 */
export const LOCK_TASK_STATES = [
  'New',
  'Audit',
  'None',
  'Execute',
  'Update',
  'Finish',
  'Cancel',
  'ForceEnd',
] as const;
export type LockTaskState = (typeof LOCK_TASK_STATES)[number];

/** States a task never leaves. */
export const FINAL_LOCK_TASK_STATES = [
  'Finish',
  'Cancel',
  'ForceEnd',
] as const satisfies readonly LockTaskState[];

/** Audit flag (spec §4): waiting for the auditor, passed, rejected (back to the creator with the reason). */
export const AUDIT_FLAGS = ['Audit', 'Pass', 'Reject'] as const;
export type AuditFlag = (typeof AUDIT_FLAGS)[number];

/** Why a task finished: every operation item done, or its end time passed. */
export const TASK_FINISH_FLAGS = ['completed', 'expired'] as const;
export type TaskFinishFlag = (typeof TASK_FINISH_FLAGS)[number];

/**
 * How a lock is opened (the operation record's opMethod): remotely from the console (an IoT lock's
 * command), with an electronic key, with an offline PIN, or over Bluetooth from the mobile app.
 */
export const OPEN_METHODS = ['remote', 'key', 'pin', 'bluetooth'] as const;
export type OpenMethod = (typeof OPEN_METHODS)[number];

/** Who a fixed authorisation is for (spec §3 Fixed authorization object). */
export const AUTHORIZATION_OBJECTS = ['staff', 'department'] as const;
export type AuthorizationObject = (typeof AUTHORIZATION_OBJECTS)[number];

/** An electronic key's state: in use, reported lost, or taken out of use. Only a `normal` key opens. */
export const KEY_STATES = ['normal', 'lost', 'disabled'] as const;
export type KeyState = (typeof KEY_STATES)[number];

/** Most staff in a task's operator team, items in a task, devices in an authorisation. */
export const MAX_TASK_OPERATORS = 100;
export const MAX_TASK_ITEMS = 500;
export const MAX_AUTHORIZATION_DEVICES = 500;

const entityId = z.string({ error: 'v.required' }).min(1, { error: 'v.required' }).max(64);

/** An operation item: a device, and the key to use on it where keys are used. */
export const taskItemForm = z.object({
  deviceId: entityId,
  keyId: entityId.nullable().default(null),
});
export type TaskItemForm = z.infer<typeof taskItemForm>;

/**
 * A lock task as its creator writes it (spec §3 Lock task, §5): end later than start and not before `now`
 * (the time of the check: the server's clock on save, the browser's in the form), an operator team, and all
 * devices or at least one operation item (no device twice with the same key).
 */
export function lockTaskForm(now: () => number = Date.now) {
  return z
    .object({
      name: nameText(64),
      startTime: requiredTime,
      endTime: requiredTime,
      operatorIds: z
        .array(entityId)
        .min(1, { error: 'v.taskOperators' })
        .max(MAX_TASK_OPERATORS, { error: 'v.tooMany' }),
      operateDeptId: entityId.nullable().default(null),
      /** The audit team (a department) and, optionally, the audit person in it. */
      auditDeptId: entityId.nullable().default(null),
      auditorId: entityId.nullable().default(null),
      allDevice: z.boolean().default(false),
      items: z.array(taskItemForm).max(MAX_TASK_ITEMS, { error: 'v.tooMany' }).default([]),
    })
    .superRefine((task, ctx) => {
      // A time the field already refused is not compared.
      const given = [task.startTime, task.endTime].every(
        (t) => typeof t === 'string' && !Number.isNaN(Date.parse(t)),
      );
      const range = given
        ? timeRangeProblem(task.startTime, task.endTime, { required: true, maxOneYear: false })
        : null;
      if (range) ctx.addIssue({ code: 'custom', path: [range.path], message: range.message });
      else if (given && Date.parse(task.endTime) < now()) {
        ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'v.endNotPast' });
      }
      if (!task.allDevice && task.items.length === 0) {
        ctx.addIssue({ code: 'custom', path: ['items'], message: 'v.taskItems' });
      }
      const seen = new Set<string>();
      task.items.forEach((item, index) => {
        const key = `${item.deviceId}|${item.keyId ?? ''}`;
        if (seen.has(key))
          ctx.addIssue({ code: 'custom', path: ['items', index, 'deviceId'], message: 'v.duplicateItem' });
        seen.add(key);
      });
      if (new Set(task.operatorIds).size !== task.operatorIds.length) {
        ctx.addIssue({ code: 'custom', path: ['operatorIds'], message: 'v.duplicateItem' });
      }
    });
}
export type LockTaskForm = z.infer<ReturnType<typeof lockTaskForm>>;

/**
 * A fixed authorisation (spec §3 Fixed authorization, §5): a staff member or a department; forever, or from
 * a start to a later end; all devices or at least one.
 */
export const fixedAuthorizationForm = z
  .object({
    objectType: z.enum(AUTHORIZATION_OBJECTS),
    objectId: entityId,
    forever: z.boolean().default(false),
    startTime: optionalTime,
    endTime: optionalTime,
    allDevice: z.boolean().default(false),
    deviceIds: z.array(entityId).max(MAX_AUTHORIZATION_DEVICES, { error: 'v.tooMany' }).default([]),
  })
  .superRefine((form, ctx) => {
    if (!form.forever) {
      const range = timeRangeProblem(form.startTime ?? undefined, form.endTime ?? undefined, {
        required: true,
        maxOneYear: false,
      });
      if (range) ctx.addIssue({ code: 'custom', path: [range.path], message: range.message });
    }
    if (!form.allDevice && form.deviceIds.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['deviceIds'], message: 'v.authorizationDevices' });
    }
    if (new Set(form.deviceIds).size !== form.deviceIds.length) {
      ctx.addIssue({ code: 'custom', path: ['deviceIds'], message: 'v.duplicateItem' });
    }
  });
export type FixedAuthorizationForm = z.infer<typeof fixedAuthorizationForm>;
