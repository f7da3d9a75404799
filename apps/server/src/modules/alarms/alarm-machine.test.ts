import { ALARM_STATES } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import {
  type AlarmAction,
  type AlarmInput,
  type AlarmMachineRule,
  type AlarmMachineState,
  clears,
  IDLE,
  next,
  RESET_STATE_OF,
} from './alarm-machine.ts';
import type { Verdict } from './warn-rule-evaluator.ts';

const SECOND = 1000;
const T0 = 1_800_000_000_000;
const at = (seconds: number) => T0 + seconds * SECOND;

const instant: AlarmMachineRule = {
  ruleType: 'Instant',
  delayInterval: null,
  resend: false,
  resendInterval: null,
  clearMode: 'inverse',
  canReset: true,
};
const delayed: AlarmMachineRule = { ...instant, ruleType: 'Delay', delayInterval: 300 };
const resending: AlarmMachineRule = { ...instant, resend: true, resendInterval: 60 };

const report = (seconds: number, raise: Verdict, clear?: Verdict): AlarmInput => ({
  kind: 'evaluated',
  at: at(seconds),
  raise,
  ...(clear ? { clear } : {}),
});
const delayDue = (seconds: number): AlarmInput => ({ kind: 'delayDue', at: at(seconds) });
const resendDue = (seconds: number): AlarmInput => ({ kind: 'resendDue', at: at(seconds) });
const reset = (seconds: number, staffId = 's1'): AlarmInput => ({ kind: 'reset', at: at(seconds), staffId });
const ack = (seconds: number, staffId = 's1'): AlarmInput => ({
  kind: 'acknowledge',
  at: at(seconds),
  staffId,
});

/** An alarm raised at `seconds`, not yet acknowledged. */
const openAt = (seconds: number, extra: Partial<AlarmMachineState & { kind: 'open' }> = {}) =>
  ({
    kind: 'open',
    raisedAt: at(seconds),
    lastSentAt: at(seconds),
    acknowledged: false,
    ...extra,
  }) as const satisfies AlarmMachineState;

/**
 * Feeds inputs in order; the final state and every action taken on the way. States, inputs and the rule are
 * frozen, so a transition that changed its arguments instead of returning a new state would throw.
 */
function run(rule: AlarmMachineRule, inputs: AlarmInput[], from: AlarmMachineState = IDLE) {
  let state = from;
  const actions: AlarmAction[] = [];
  for (const input of inputs) {
    const step = next(Object.freeze(state), Object.freeze(input), Object.freeze(rule));
    state = step.state;
    actions.push(...step.actions);
  }
  return { state, actions };
}

const kinds = (actions: AlarmAction[]) => actions.map((a) => a.kind);

describe('idle', () => {
  it('raises an Instant rule at once when its condition holds', () => {
    expect(next(IDLE, report(0, 'holds'), instant)).toEqual({
      state: openAt(0),
      actions: [{ kind: 'raise', at: at(0) }],
    });
  });

  it('schedules the first reminder with the alarm when the rule resends', () => {
    expect(next(IDLE, report(0, 'holds'), resending).actions).toEqual([
      { kind: 'raise', at: at(0) },
      { kind: 'scheduleResend', dueAt: at(60) },
    ]);
  });

  it('starts the delay of a Delay rule instead of raising', () => {
    expect(next(IDLE, report(0, 'holds'), delayed)).toEqual({
      state: { kind: 'pending', since: at(0), dueAt: at(300) },
      actions: [{ kind: 'scheduleDelay', dueAt: at(300) }],
    });
  });

  it('raises a Delay rule without a delay at once rather than never', () => {
    for (const delayInterval of [null, 0]) {
      expect(kinds(next(IDLE, report(0, 'holds'), { ...delayed, delayInterval }).actions)).toEqual(['raise']);
    }
  });

  it('does nothing when the condition fails or is unknown', () => {
    for (const rule of [instant, delayed]) {
      for (const verdict of ['fails', 'unknown'] as const) {
        expect(next(IDLE, report(0, verdict), rule)).toEqual({ state: IDLE, actions: [] });
      }
    }
  });

  it('ignores timers, resets and acknowledgements: there is no alarm', () => {
    for (const input of [delayDue(0), resendDue(0), reset(0), ack(0)]) {
      expect(next(IDLE, input, resending)).toEqual({ state: IDLE, actions: [] });
    }
  });
});

describe('pending (Delay rule)', () => {
  const pending: AlarmMachineState = { kind: 'pending', since: at(0), dueAt: at(300) };

  it('keeps waiting, from the first holding report, while the condition holds', () => {
    expect(next(pending, report(100, 'holds'), delayed)).toEqual({ state: pending, actions: [] });
  });

  it('is interrupted by a failing report, which cancels the delay', () => {
    expect(next(pending, report(100, 'fails'), delayed)).toEqual({
      state: IDLE,
      actions: [{ kind: 'cancelDelay' }],
    });
  });

  it('is not interrupted by an unknown report', () => {
    expect(next(pending, report(100, 'unknown'), delayed)).toEqual({ state: pending, actions: [] });
    expect(kinds(run(delayed, [report(100, 'unknown'), delayDue(300)], pending).actions)).toEqual(['raise']);
  });

  it('raises when the delay is due', () => {
    expect(next(pending, delayDue(300), delayed)).toEqual({
      state: openAt(300),
      actions: [{ kind: 'raise', at: at(300) }],
    });
    expect(next(pending, delayDue(300), { ...delayed, resend: true, resendInterval: 60 }).actions).toEqual([
      { kind: 'raise', at: at(300) },
      { kind: 'scheduleResend', dueAt: at(360) },
    ]);
  });

  it('raises on a holding report past the due time when the timer is late', () => {
    expect(next(pending, report(301, 'holds'), delayed)).toEqual({
      state: openAt(301),
      actions: [{ kind: 'cancelDelay' }, { kind: 'raise', at: at(301) }],
    });
  });

  it('does not raise on a delay timer that is not due yet', () => {
    expect(next(pending, delayDue(299), delayed)).toEqual({ state: pending, actions: [] });
  });

  it('restarts the delay after an interruption, and the old timer does nothing', () => {
    const { state, actions } = run(delayed, [
      report(0, 'holds'),
      report(100, 'fails'),
      report(200, 'holds'),
      delayDue(300),
    ]);
    expect(state).toEqual({ kind: 'pending', since: at(200), dueAt: at(500) });
    expect(actions).toEqual([
      { kind: 'scheduleDelay', dueAt: at(300) },
      { kind: 'cancelDelay' },
      { kind: 'scheduleDelay', dueAt: at(500) },
    ]);
    expect(kinds(next(state, delayDue(500), delayed).actions)).toEqual(['raise']);
  });

  it('ignores resend timers, resets and acknowledgements: there is no alarm yet', () => {
    for (const input of [resendDue(300), reset(100), ack(100)]) {
      expect(next(pending, input, delayed)).toEqual({ state: pending, actions: [] });
    }
  });
});

describe('open', () => {
  it('keeps one alarm: a holding report raises no second one', () => {
    expect(next(openAt(0), report(10, 'holds'), instant)).toEqual({ state: openAt(0), actions: [] });
  });

  it('ignores a delay timer firing again after it raised', () => {
    expect(next(openAt(300), delayDue(300), delayed)).toEqual({ state: openAt(300), actions: [] });
  });

  describe('auto reset', () => {
    it('resets to Normal once the raise condition fails (inverse clear mode)', () => {
      expect(next(openAt(0), report(10, 'fails'), instant)).toEqual({
        state: IDLE,
        actions: [{ kind: 'autoReset', at: at(10) }],
      });
    });

    it('does not reset on an unknown report', () => {
      expect(next(openAt(0), report(10, 'unknown'), instant).state).toEqual(openAt(0));
    });

    it('ends the reminders with the alarm', () => {
      expect(next(openAt(0), report(10, 'fails'), resending).actions).toEqual([
        { kind: 'autoReset', at: at(10) },
        { kind: 'cancelResend' },
      ]);
    });

    it('resets only on the clear items in the items clear mode', () => {
      const rule: AlarmMachineRule = { ...instant, clearMode: 'items' };
      expect(next(openAt(0), report(10, 'fails'), rule).state).toEqual(openAt(0));
      expect(next(openAt(0), report(10, 'fails', 'fails'), rule).state).toEqual(openAt(0));
      expect(next(openAt(0), report(10, 'fails', 'unknown'), rule).state).toEqual(openAt(0));
      expect(next(openAt(0), report(10, 'holds', 'holds'), rule)).toEqual({
        state: IDLE,
        actions: [{ kind: 'autoReset', at: at(10) }],
      });
    });
  });

  describe('manual reset', () => {
    it('resets with the time and staff where the alarm can be reset', () => {
      expect(next(openAt(0), reset(20, 'staff-7'), instant)).toEqual({
        state: IDLE,
        actions: [{ kind: 'manualReset', at: at(20), staffId: 'staff-7' }],
      });
      expect(next(openAt(0), reset(20), resending).actions).toEqual([
        { kind: 'manualReset', at: at(20), staffId: 's1' },
        { kind: 'cancelResend' },
      ]);
    });

    it('is refused where the alarm cannot be reset', () => {
      expect(next(openAt(0), reset(20), { ...instant, canReset: false })).toEqual({
        state: openAt(0),
        actions: [],
      });
    });

    it('lets the next holding report raise a new alarm while the fault lasts', () => {
      expect(kinds(run(instant, [report(0, 'holds'), reset(20), report(30, 'holds')]).actions)).toEqual([
        'raise',
        'manualReset',
        'raise',
      ]);
      const { state } = run(delayed, [report(0, 'holds'), delayDue(300), reset(320), report(330, 'holds')]);
      expect(state).toEqual({ kind: 'pending', since: at(330), dueAt: at(630) });
    });
  });

  describe('acknowledge', () => {
    it('marks the alarm acknowledged and leaves it open', () => {
      expect(next(openAt(0), ack(5, 'staff-2'), instant)).toEqual({
        state: openAt(0, { acknowledged: true }),
        actions: [{ kind: 'acknowledge', at: at(5), staffId: 'staff-2' }],
      });
    });

    it('stops the reminders', () => {
      const { state, actions } = run(resending, [ack(5), resendDue(60)], openAt(0));
      expect(actions).toEqual([{ kind: 'acknowledge', at: at(5), staffId: 's1' }, { kind: 'cancelResend' }]);
      expect(state).toEqual(openAt(0, { acknowledged: true }));
    });

    it('keeps the first acknowledgement', () => {
      const acked = openAt(0, { acknowledged: true });
      expect(next(acked, ack(9, 'staff-3'), resending)).toEqual({ state: acked, actions: [] });
    });

    it('still resets itself, with no reminder left to cancel', () => {
      expect(next(openAt(0, { acknowledged: true }), report(30, 'fails'), resending)).toEqual({
        state: IDLE,
        actions: [{ kind: 'autoReset', at: at(30) }],
      });
    });

    it('does not stand in for a reset', () => {
      expect(kinds(run(instant, [report(0, 'holds'), ack(5), report(10, 'holds')]).actions)).toEqual([
        'raise',
        'acknowledge',
      ]);
    });
  });

  describe('resend', () => {
    it('reminds every interval and schedules the next reminder', () => {
      const { state, actions } = run(resending, [resendDue(60), resendDue(120)], openAt(0));
      expect(actions).toEqual([
        { kind: 'resend', at: at(60) },
        { kind: 'scheduleResend', dueAt: at(120) },
        { kind: 'resend', at: at(120) },
        { kind: 'scheduleResend', dueAt: at(180) },
      ]);
      expect(state).toEqual(openAt(0, { lastSentAt: at(120) }));
    });

    it('acts once when the same timer fires twice', () => {
      expect(kinds(run(resending, [resendDue(60), resendDue(60)], openAt(0)).actions)).toEqual([
        'resend',
        'scheduleResend',
      ]);
    });

    it('ignores a timer that is not due, and counts the next interval from a late one', () => {
      expect(next(openAt(0), resendDue(59), resending)).toEqual({ state: openAt(0), actions: [] });
      expect(next(openAt(0), resendDue(75), resending).actions).toEqual([
        { kind: 'resend', at: at(75) },
        { kind: 'scheduleResend', dueAt: at(135) },
      ]);
    });

    it('does nothing for a rule that does not resend (or whose resend was switched off)', () => {
      expect(next(openAt(0), resendDue(60), instant)).toEqual({ state: openAt(0), actions: [] });
      expect(next(openAt(0), resendDue(60), { ...resending, resendInterval: null }).actions).toEqual([]);
    });

    it('keeps the stored record id through every change of an open alarm', () => {
      const stored = openAt(0, { alarmId: 'a1' });
      expect(next(stored, resendDue(60), resending).state).toMatchObject({ alarmId: 'a1' });
      expect(next(stored, ack(61), resending).state).toMatchObject({ alarmId: 'a1' });
    });
  });
});

describe('a door left open (Delay rule with reminders)', () => {
  it('raises once after the delay, reminds, and resets to Normal when the door closes', () => {
    const rule: AlarmMachineRule = { ...delayed, resend: true, resendInterval: 600 };
    const { state, actions } = run(rule, [
      report(0, 'holds'),
      report(120, 'holds'),
      delayDue(300),
      delayDue(300),
      report(310, 'holds'),
      resendDue(900),
      report(1000, 'fails'),
      resendDue(1500),
    ]);
    expect(actions).toEqual([
      { kind: 'scheduleDelay', dueAt: at(300) },
      { kind: 'raise', at: at(300) },
      { kind: 'scheduleResend', dueAt: at(900) },
      { kind: 'resend', at: at(900) },
      { kind: 'scheduleResend', dueAt: at(1500) },
      { kind: 'autoReset', at: at(1000) },
      { kind: 'cancelResend' },
    ]);
    expect(state).toEqual(IDLE);
  });
});

describe('clear condition', () => {
  it('is the failing raise condition by default and the holding clear items otherwise', () => {
    const verdicts: Verdict[] = ['holds', 'fails', 'unknown'];
    for (const raise of verdicts) {
      for (const clear of [...verdicts, undefined]) {
        expect(clears({ clearMode: 'inverse' }, raise, clear)).toBe(raise === 'fails');
        expect(clears({ clearMode: 'items' }, raise, clear)).toBe(clear === 'holds');
      }
    }
  });
});

describe('record states', () => {
  it('are Normal after an automatic reset and Reset after a manual one, both alarm states', () => {
    expect(RESET_STATE_OF).toEqual({ autoReset: 'Normal', manualReset: 'Reset' });
    for (const state of Object.values(RESET_STATE_OF)) expect(ALARM_STATES).toContain(state);
  });
});
