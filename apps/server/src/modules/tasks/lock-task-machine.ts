import type { AuditFlag, LockTaskState, ResultCode, TaskFinishFlag } from '@uiot/contracts';

/**
 * The lifecycle of a lock task (spec §4 task state and audit flag; §5 task rules) as a pure transition
 * function. The service reads the task, asks `next`, and stores what it answers in the same transaction;
 * the transition table is docs/lock-tasks.md, and every row of it has a test beside this file.
 *
 * Decisions beyond the spec, each tested:
 * - `None` is an approved task whose start time has not come; it becomes `Execute` at its start (the time
 *   job, or the first look after it). Both grant openings only inside [start, end) (open-decision.ts).
 * - An approved task edited by its creator while audits are required becomes `Update`: it grants nothing
 *   until the auditor passes the change; a rejected change sends it back to `New` with the reason.
 * - Nobody audits their own task: the creator is refused as auditor even when named as one, and so is a
 *   member of its operator team (separation of duties: nobody approves the openings they are to make).
 * - Cancel is for a task that has not started (`New`, `Audit`, `None`); one that has started is ended with
 *   a reason (`ForceEnd`), so that its record says why work stopped.
 * - A task whose end time has passed cannot be submitted or passed; one that is approved finishes then
 *   (`expired`), or earlier when every operation item is done (`completed`).
 */

/** What the machine reads of a task. Times are ms since epoch. */
export interface LockTaskSnapshot {
  state: LockTaskState;
  authFlag: AuditFlag | null;
  creatorId: string;
  startTime: number;
  endTime: number;
}

/**
 * Who acts: a staff member, and whether they may audit this task (its audit person, or a member of its
 * audit team when it names no person, holding `lockTask.audit`: the service works it out).
 */
export interface TaskActor {
  staffId: string;
  mayAudit: boolean;
  /** Whether they are in the task's operator team: nobody approves the openings they are to make. */
  operates: boolean;
}

export type LockTaskInput =
  /** The creator hands the task in: to its auditor when `TaskNeedAudit` says so, else it is approved. */
  | { kind: 'submit'; at: number; actor: TaskActor; needAudit: boolean }
  | { kind: 'pass'; at: number; actor: TaskActor }
  | { kind: 'reject'; at: number; actor: TaskActor; reason: string }
  /** The creator changed the task (its new times are in `startTime`/`endTime`). */
  | { kind: 'edit'; at: number; actor: TaskActor; needAudit: boolean; startTime: number; endTime: number }
  | { kind: 'cancel'; at: number; actor: TaskActor }
  | { kind: 'forceEnd'; at: number; actor: TaskActor; reason: string }
  /** Every operation item has been done (the last operation record came in). */
  | { kind: 'itemsDone'; at: number }
  /** The time job's look at the task: start and end times that have come. */
  | { kind: 'tick'; at: number };

/** Why an input is refused: a result code the API answers with. */
export type LockTaskRefusal = Extract<
  keyof typeof ResultCode,
  | 'LockTaskNotCreator'
  | 'LockTaskNotAuditor'
  | 'LockTaskSelfAudit'
  | 'LockTaskOperatorAudit'
  | 'LockTaskWrongState'
  | 'LockTaskEnded'
>;

/** What changes on the task; fields not named stay as they are. */
export interface LockTaskChange {
  state: LockTaskState;
  authFlag?: AuditFlag | null;
  /** The auditor's reason (reject) or the reason of a forced end. */
  reason?: string;
  /** When the audit was passed or rejected. */
  auditedAt?: number;
  finishFlag?: TaskFinishFlag;
  finishedAt?: number;
}

export type LockTaskTransition =
  | { ok: true; change: LockTaskChange | null }
  | { ok: false; refusal: LockTaskRefusal };

const refuse = (refusal: LockTaskRefusal): LockTaskTransition => ({ ok: false, refusal });
const to = (change: LockTaskChange): LockTaskTransition => ({ ok: true, change });
/** Nothing to do (a time or item event that does not apply now). */
const STAY: LockTaskTransition = { ok: true, change: null };

/** An approved task's state at `at`: not started yet, or executing. */
function approvedAt(startTime: number, at: number): LockTaskState {
  return at < startTime ? 'None' : 'Execute';
}

/** States that run towards an end: approved, or approved with an edit waiting for audit. */
const RUNNING: readonly LockTaskState[] = ['None', 'Execute', 'Update'];
/** States in which the auditor has something to decide. */
const AWAITING_AUDIT: readonly LockTaskState[] = ['Audit', 'Update'];

function audit(
  task: LockTaskSnapshot,
  input: Extract<LockTaskInput, { kind: 'pass' | 'reject' }>,
): LockTaskTransition {
  if (!AWAITING_AUDIT.includes(task.state)) return refuse('LockTaskWrongState');
  if (input.actor.staffId === task.creatorId) return refuse('LockTaskSelfAudit');
  if (input.actor.operates) return refuse('LockTaskOperatorAudit');
  if (!input.actor.mayAudit) return refuse('LockTaskNotAuditor');
  if (input.kind === 'reject') {
    return to({ state: 'New', authFlag: 'Reject', reason: input.reason, auditedAt: input.at });
  }
  if (task.endTime <= input.at) return refuse('LockTaskEnded');
  return to({ state: approvedAt(task.startTime, input.at), authFlag: 'Pass', auditedAt: input.at });
}

function byCreator(task: LockTaskSnapshot, input: Extract<LockTaskInput, { actor: TaskActor }>) {
  return input.actor.staffId === task.creatorId;
}

/** The task after `input`, or why it is refused. */
export function next(task: LockTaskSnapshot, input: LockTaskInput): LockTaskTransition {
  switch (input.kind) {
    case 'submit':
      if (task.state !== 'New') return refuse('LockTaskWrongState');
      if (!byCreator(task, input)) return refuse('LockTaskNotCreator');
      if (task.endTime <= input.at) return refuse('LockTaskEnded');
      return input.needAudit
        ? to({ state: 'Audit', authFlag: 'Audit' })
        : to({ state: approvedAt(task.startTime, input.at), authFlag: null });
    case 'pass':
    case 'reject':
      return audit(task, input);
    case 'edit':
      if (!['New', ...RUNNING].includes(task.state)) return refuse('LockTaskWrongState');
      if (!byCreator(task, input)) return refuse('LockTaskNotCreator');
      if (task.state === 'New') return to({ state: 'New' });
      if (input.needAudit) return to({ state: 'Update', authFlag: 'Audit' });
      // No audit required: the change applies at once; the new times decide whether it has started. An edit
      // waiting for an audit that is no longer required is approved with it.
      return to({
        state: approvedAt(input.startTime, input.at),
        ...(task.state === 'Update' ? { authFlag: null } : {}),
      });
    case 'cancel':
      if (!['New', 'Audit', 'None'].includes(task.state)) return refuse('LockTaskWrongState');
      if (!byCreator(task, input)) return refuse('LockTaskNotCreator');
      return to({ state: 'Cancel' });
    case 'forceEnd':
      if (!RUNNING.includes(task.state)) return refuse('LockTaskWrongState');
      return to({ state: 'ForceEnd', reason: input.reason, finishedAt: input.at });
    case 'itemsDone':
      if (task.state !== 'Execute' && task.state !== 'Update') return STAY;
      return to({ state: 'Finish', finishFlag: 'completed', finishedAt: input.at });
    case 'tick':
      if (RUNNING.includes(task.state) && task.endTime <= input.at) {
        return to({ state: 'Finish', finishFlag: 'expired', finishedAt: input.at });
      }
      if (task.state === 'None' && task.startTime <= input.at) return to({ state: 'Execute' });
      return STAY;
  }
}
