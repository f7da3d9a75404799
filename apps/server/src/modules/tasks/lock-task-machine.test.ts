import { FINAL_LOCK_TASK_STATES, LOCK_TASK_STATES, type LockTaskState } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import {
  type LockTaskInput,
  type LockTaskSnapshot,
  type LockTaskTransition,
  next,
  type TaskActor,
} from './lock-task-machine.ts';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 27, 8, 0, 0);
const CREATOR: TaskActor = { staffId: 'creator', mayAudit: false, operates: false };
const AUDITOR: TaskActor = { staffId: 'auditor', mayAudit: true, operates: false };
const STRANGER: TaskActor = { staffId: 'stranger', mayAudit: false, operates: false };

/** A task of `state` that started an hour ago and ends in an hour. */
const task = (state: LockTaskState, extra: Partial<LockTaskSnapshot> = {}): LockTaskSnapshot => ({
  state,
  authFlag: null,
  creatorId: CREATOR.staffId,
  startTime: NOW - HOUR,
  endTime: NOW + HOUR,
  ...extra,
});

const submit = (needAudit: boolean, actor = CREATOR, at = NOW): LockTaskInput => ({
  kind: 'submit',
  at,
  actor,
  needAudit,
});
const pass = (actor = AUDITOR, at = NOW): LockTaskInput => ({ kind: 'pass', at, actor });
const reject = (actor = AUDITOR): LockTaskInput => ({ kind: 'reject', at: NOW, actor, reason: 'Wrong gate' });
const edit = (needAudit: boolean, actor = CREATOR, startTime = NOW - HOUR): LockTaskInput => ({
  kind: 'edit',
  at: NOW,
  actor,
  needAudit,
  startTime,
  endTime: NOW + 2 * HOUR,
});
const cancel = (actor = CREATOR): LockTaskInput => ({ kind: 'cancel', at: NOW, actor });
const forceEnd = (actor: TaskActor = STRANGER): LockTaskInput => ({
  kind: 'forceEnd',
  at: NOW,
  actor,
  reason: 'Track possession withdrawn',
});
const itemsDone: LockTaskInput = { kind: 'itemsDone', at: NOW };
const tick = (at = NOW): LockTaskInput => ({ kind: 'tick', at });

const refused = (refusal: string): LockTaskTransition => ({ ok: false, refusal }) as LockTaskTransition;
const stays: LockTaskTransition = { ok: true, change: null };
const stateAfter = (result: LockTaskTransition) => (result.ok ? result.change?.state : undefined);

describe('the lock task machine: the transition table of docs/lock-tasks.md', () => {
  /** For each input, the state each state goes to (a state missing is refused as LockTaskWrongState). */
  const table: Array<[string, LockTaskInput, Partial<Record<LockTaskState, LockTaskState>>]> = [
    ['submit with audit', submit(true), { New: 'Audit' }],
    ['submit without audit', submit(false), { New: 'Execute' }],
    ['pass', pass(), { Audit: 'Execute', Update: 'Execute' }],
    ['reject', reject(), { Audit: 'New', Update: 'New' }],
    ['edit with audit', edit(true), { New: 'New', None: 'Update', Execute: 'Update', Update: 'Update' }],
    [
      'edit without audit',
      edit(false),
      { New: 'New', None: 'Execute', Execute: 'Execute', Update: 'Execute' },
    ],
    ['cancel', cancel(), { New: 'Cancel', Audit: 'Cancel', None: 'Cancel' }],
    ['force end', forceEnd(), { None: 'ForceEnd', Execute: 'ForceEnd', Update: 'ForceEnd' }],
  ];

  for (const [name, input, targets] of table) {
    for (const state of LOCK_TASK_STATES) {
      const target = targets[state];
      it(`${name}: ${state} → ${target ?? 'refused'}`, () => {
        const result = next(task(state), input);
        if (target) expect(stateAfter(result)).toBe(target);
        else expect(result).toEqual(refused('LockTaskWrongState'));
      });
    }
  }

  it('moves only running tasks on time and item events, and leaves the others alone', () => {
    for (const state of LOCK_TASK_STATES) {
      const ended = next(task(state), tick(NOW + HOUR));
      if (['None', 'Execute', 'Update'].includes(state)) {
        expect(ended).toEqual({
          ok: true,
          change: { state: 'Finish', finishFlag: 'expired', finishedAt: NOW + HOUR },
        });
      } else expect(ended).toEqual(stays);

      const done = next(task(state), itemsDone);
      if (['Execute', 'Update'].includes(state)) {
        expect(done).toEqual({
          ok: true,
          change: { state: 'Finish', finishFlag: 'completed', finishedAt: NOW },
        });
      } else expect(done).toEqual(stays);
    }
  });

  it('never leaves a final state', () => {
    const inputs = [
      submit(true),
      pass(),
      reject(),
      edit(true),
      cancel(),
      forceEnd(),
      itemsDone,
      tick(NOW + 9 * HOUR),
    ];
    for (const state of FINAL_LOCK_TASK_STATES) {
      for (const input of inputs) {
        const result = next(task(state), input);
        expect(result.ok ? result.change : null).toBeNull();
      }
    }
  });
});

describe('submitting', () => {
  it('hands the task to its auditor with the flag Audit, or approves it when no audit is needed', () => {
    expect(next(task('New'), submit(true))).toEqual({
      ok: true,
      change: { state: 'Audit', authFlag: 'Audit' },
    });
    expect(next(task('New'), submit(false))).toEqual({
      ok: true,
      change: { state: 'Execute', authFlag: null },
    });
  });

  it('approves a task that has not started as None, and one starting now as Execute', () => {
    expect(stateAfter(next(task('New', { startTime: NOW + 1 }), submit(false)))).toBe('None');
    expect(stateAfter(next(task('New', { startTime: NOW }), submit(false)))).toBe('Execute');
  });

  it('is for the creator only, and refuses a task whose end time has passed', () => {
    expect(next(task('New'), submit(true, STRANGER))).toEqual(refused('LockTaskNotCreator'));
    expect(next(task('New'), submit(true, AUDITOR))).toEqual(refused('LockTaskNotCreator'));
    expect(next(task('New', { endTime: NOW }), submit(true))).toEqual(refused('LockTaskEnded'));
    expect(stateAfter(next(task('New', { endTime: NOW + 1 }), submit(true)))).toBe('Audit');
  });

  it('resubmits a rejected task', () => {
    expect(stateAfter(next(task('New', { authFlag: 'Reject' }), submit(true)))).toBe('Audit');
  });
});

describe('auditing', () => {
  it('passes with the flag Pass and the audit time; rejects back to New with the reason', () => {
    expect(next(task('Audit'), pass())).toEqual({
      ok: true,
      change: { state: 'Execute', authFlag: 'Pass', auditedAt: NOW },
    });
    expect(next(task('Audit', { startTime: NOW + HOUR }), pass())).toEqual({
      ok: true,
      change: { state: 'None', authFlag: 'Pass', auditedAt: NOW },
    });
    expect(next(task('Audit'), reject())).toEqual({
      ok: true,
      change: { state: 'New', authFlag: 'Reject', reason: 'Wrong gate', auditedAt: NOW },
    });
  });

  it('is for an auditor who is not the creator', () => {
    expect(next(task('Audit'), pass(STRANGER))).toEqual(refused('LockTaskNotAuditor'));
    expect(next(task('Audit'), reject(STRANGER))).toEqual(refused('LockTaskNotAuditor'));
    const creatorAuditor: TaskActor = { ...CREATOR, mayAudit: true };
    expect(next(task('Audit'), pass(creatorAuditor))).toEqual(refused('LockTaskSelfAudit'));
    expect(next(task('Update'), reject(creatorAuditor))).toEqual(refused('LockTaskSelfAudit'));
  });

  it('is not for a member of the operator team, even one who may audit', () => {
    const operatorAuditor: TaskActor = { ...AUDITOR, operates: true };
    expect(next(task('Audit'), pass(operatorAuditor))).toEqual(refused('LockTaskOperatorAudit'));
    expect(next(task('Update'), reject(operatorAuditor))).toEqual(refused('LockTaskOperatorAudit'));
  });

  it('cannot pass a task whose end time has passed, and can still reject it', () => {
    expect(next(task('Audit', { endTime: NOW }), pass())).toEqual(refused('LockTaskEnded'));
    expect(next(task('Update', { endTime: NOW - 1 }), pass())).toEqual(refused('LockTaskEnded'));
    expect(stateAfter(next(task('Audit', { endTime: NOW }), reject()))).toBe('New');
  });
});

describe('editing', () => {
  it('is for the creator only', () => {
    for (const state of ['New', 'None', 'Execute', 'Update'] as const) {
      expect(next(task(state), edit(true, STRANGER))).toEqual(refused('LockTaskNotCreator'));
      expect(next(task(state), edit(true, AUDITOR))).toEqual(refused('LockTaskNotCreator'));
    }
  });

  it('keeps a rejected task New and its flag until it is submitted again', () => {
    expect(next(task('New', { authFlag: 'Reject' }), edit(true))).toEqual({
      ok: true,
      change: { state: 'New' },
    });
  });

  it('sends an approved task back to audit as Update when audits are required', () => {
    expect(next(task('Execute', { authFlag: 'Pass' }), edit(true))).toEqual({
      ok: true,
      change: { state: 'Update', authFlag: 'Audit' },
    });
  });

  it('applies at once without audit, its new start deciding whether it has started', () => {
    expect(next(task('Execute'), edit(false, CREATOR, NOW + HOUR))).toEqual({
      ok: true,
      change: { state: 'None' },
    });
    expect(next(task('None'), edit(false, CREATOR, NOW))).toEqual({ ok: true, change: { state: 'Execute' } });
    expect(next(task('Update', { authFlag: 'Audit' }), edit(false))).toEqual({
      ok: true,
      change: { state: 'Execute', authFlag: null },
    });
  });
});

describe('cancelling and ending', () => {
  it('lets only the creator cancel a task that has not started', () => {
    expect(next(task('New'), cancel(STRANGER))).toEqual(refused('LockTaskNotCreator'));
    expect(next(task('Audit'), cancel(AUDITOR))).toEqual(refused('LockTaskNotCreator'));
    expect(next(task('Execute'), cancel())).toEqual(refused('LockTaskWrongState'));
  });

  it('ends a running task with its reason, whoever holds the permission', () => {
    expect(next(task('Execute'), forceEnd(CREATOR))).toEqual({
      ok: true,
      change: { state: 'ForceEnd', reason: 'Track possession withdrawn', finishedAt: NOW },
    });
    expect(stateAfter(next(task('Update'), forceEnd(AUDITOR)))).toBe('ForceEnd');
  });
});

describe('time', () => {
  it('starts an approved task at its start time, not a millisecond before', () => {
    const waiting = task('None', { startTime: NOW });
    expect(next(waiting, tick(NOW - 1))).toEqual(stays);
    expect(next(waiting, tick(NOW))).toEqual({ ok: true, change: { state: 'Execute' } });
  });

  it('finishes a running task at its end time, not a millisecond before', () => {
    const running = task('Execute', { endTime: NOW });
    expect(next(running, tick(NOW - 1))).toEqual(stays);
    expect(stateAfter(next(running, tick(NOW)))).toBe('Finish');
    // One that never started finishes too: its whole window has passed.
    expect(stateAfter(next(task('None', { startTime: NOW - 2, endTime: NOW - 1 }), tick(NOW)))).toBe(
      'Finish',
    );
  });

  it('leaves a task not yet approved where it is when its end time passes', () => {
    expect(next(task('New', { endTime: NOW - 1 }), tick(NOW))).toEqual(stays);
    expect(next(task('Audit', { endTime: NOW - 1 }), tick(NOW))).toEqual(stays);
  });
});
