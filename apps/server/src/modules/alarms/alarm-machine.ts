import type { AlarmState, WarnRuleForm } from '@uiot/contracts';
import type { Verdict } from './warn-rule-evaluator.ts';

/**
 * The lifecycle of one warn rule on one device (spec §4 alarm reset state; issue 16) as a pure transition
 * function: the runner stores the state, feeds it each stored report's verdicts, its timers and the staff's
 * actions, and carries out the actions it gets back (write the alarm record, notify, set or drop a timer).
 * Times are ms since epoch, given by the caller; nothing here reads a clock.
 *
 * Decisions beyond the spec, each tested:
 * - A report whose raise condition is `unknown` (a property never reported, or of another type) changes
 *   nothing: it does not start a delay, does not interrupt one, and does not clear an open alarm.
 * - At most one open alarm per rule and device: a holding report while open does nothing.
 * - Acknowledging stops the reminders (the operator has seen the alarm); the alarm stays open and still
 *   resets itself when the clear condition holds.
 * - After a manual Reset the machine is idle again: while the condition still holds, the next report raises
 *   a new alarm (a Delay rule after its delay), because a reset must not hide a fault that is still there.
 * - A timer acts only when its time has come for the current state; a timer of an earlier state, or the
 *   same timer firing twice, does nothing.
 */

export type AlarmMachineState =
  | { kind: 'idle' }
  /** A Delay rule whose condition has held since `since`, raising at `dueAt` unless interrupted. */
  | { kind: 'pending'; since: number; dueAt: number }
  /** An open alarm (state Warn); `alarmId` once the runner has stored its record. */
  | { kind: 'open'; alarmId?: string; raisedAt: number; lastSentAt: number; acknowledged: boolean };

export type AlarmInput =
  /** A stored report: the raise condition's verdict, and the clear items' verdict where the rule has them. */
  | { kind: 'evaluated'; at: number; raise: Verdict; clear?: Verdict }
  | { kind: 'delayDue'; at: number }
  | { kind: 'resendDue'; at: number }
  | { kind: 'reset'; at: number; staffId: string }
  | { kind: 'acknowledge'; at: number; staffId: string };

export type AlarmAction =
  /** Write a new alarm record (state Warn) and notify its recipients. */
  | { kind: 'raise'; at: number }
  | { kind: 'scheduleDelay'; dueAt: number }
  | { kind: 'cancelDelay' }
  | { kind: 'scheduleResend'; dueAt: number }
  | { kind: 'cancelResend' }
  /** Notify the recipients of the open alarm again. */
  | { kind: 'resend'; at: number }
  /** The clear condition holds: the record becomes Normal with its reset time. */
  | { kind: 'autoReset'; at: number }
  /** Staff reset it: the record becomes Reset with the reset time and staff. */
  | { kind: 'manualReset'; at: number; staffId: string }
  | { kind: 'acknowledge'; at: number; staffId: string };

/** The alarm record's state each closing action leaves (spec §4: Normal is automatic, Reset manual). */
export const RESET_STATE_OF = { autoReset: 'Normal', manualReset: 'Reset' } as const satisfies Record<
  Extract<AlarmAction['kind'], 'autoReset' | 'manualReset'>,
  AlarmState
>;

/** What the machine reads of a rule; intervals in seconds as the rule stores them. */
export type AlarmMachineRule = Pick<
  WarnRuleForm,
  'ruleType' | 'delayInterval' | 'resend' | 'resendInterval' | 'clearMode'
> & {
  /** Whether staff may reset this rule's alarms by hand (the alarm record's canReset). */
  canReset: boolean;
};

export interface Transition {
  state: AlarmMachineState;
  actions: AlarmAction[];
}

export const IDLE: AlarmMachineState = { kind: 'idle' };

const seconds = (value: number | null | undefined) => (value && value > 0 ? value * 1000 : 0);

/** The resend interval in ms while reminders are due, else 0 (no resend, or acknowledged). */
function resendMs(rule: AlarmMachineRule, acknowledged: boolean): number {
  return rule.resend && !acknowledged ? seconds(rule.resendInterval) : 0;
}

const stay = (state: AlarmMachineState): Transition => ({ state, actions: [] });

/** A new open alarm at `at`, with its first reminder scheduled if the rule resends. */
function raise(rule: AlarmMachineRule, at: number, before: AlarmAction[] = []): Transition {
  const interval = resendMs(rule, false);
  const actions: AlarmAction[] = [...before, { kind: 'raise', at }];
  if (interval > 0) actions.push({ kind: 'scheduleResend', dueAt: at + interval });
  return { state: { kind: 'open', raisedAt: at, lastSentAt: at, acknowledged: false }, actions };
}

/** Closing an open alarm: its reminders end with it. */
function close(rule: AlarmMachineRule, acknowledged: boolean, closing: AlarmAction): Transition {
  const actions: AlarmAction[] = [closing];
  if (resendMs(rule, acknowledged) > 0) actions.push({ kind: 'cancelResend' });
  return { state: IDLE, actions };
}

/**
 * Whether a report clears an open alarm: by default once the raise condition fails (not merely unknown);
 * with clear items once they hold.
 */
export function clears(rule: Pick<AlarmMachineRule, 'clearMode'>, raise: Verdict, clear?: Verdict): boolean {
  return rule.clearMode === 'items' ? clear === 'holds' : raise === 'fails';
}

function fromIdle(input: AlarmInput, rule: AlarmMachineRule): Transition {
  if (input.kind !== 'evaluated' || input.raise !== 'holds') return stay(IDLE);
  const delay = rule.ruleType === 'Delay' ? seconds(rule.delayInterval) : 0;
  if (delay === 0) return raise(rule, input.at);
  const dueAt = input.at + delay;
  return { state: { kind: 'pending', since: input.at, dueAt }, actions: [{ kind: 'scheduleDelay', dueAt }] };
}

function fromPending(
  state: Extract<AlarmMachineState, { kind: 'pending' }>,
  input: AlarmInput,
  rule: AlarmMachineRule,
): Transition {
  if (input.kind === 'evaluated' && input.raise === 'fails') {
    return { state: IDLE, actions: [{ kind: 'cancelDelay' }] };
  }
  if (input.kind === 'delayDue' && input.at >= state.dueAt) return raise(rule, input.at);
  // A holding report past the due time: the delay has passed uninterrupted even if its timer is late.
  if (input.kind === 'evaluated' && input.raise === 'holds' && input.at >= state.dueAt) {
    return raise(rule, input.at, [{ kind: 'cancelDelay' }]);
  }
  return stay(state);
}

function fromOpen(
  state: Extract<AlarmMachineState, { kind: 'open' }>,
  input: AlarmInput,
  rule: AlarmMachineRule,
): Transition {
  switch (input.kind) {
    case 'evaluated':
      if (!clears(rule, input.raise, input.clear)) return stay(state);
      return close(rule, state.acknowledged, { kind: 'autoReset', at: input.at });
    case 'reset':
      if (!rule.canReset) return stay(state);
      return close(rule, state.acknowledged, { kind: 'manualReset', at: input.at, staffId: input.staffId });
    case 'acknowledge': {
      if (state.acknowledged) return stay(state);
      const actions: AlarmAction[] = [{ kind: 'acknowledge', at: input.at, staffId: input.staffId }];
      if (resendMs(rule, false) > 0) actions.push({ kind: 'cancelResend' });
      return { state: { ...state, acknowledged: true }, actions };
    }
    case 'resendDue': {
      const interval = resendMs(rule, state.acknowledged);
      if (interval === 0 || input.at < state.lastSentAt + interval) return stay(state);
      return {
        state: { ...state, lastSentAt: input.at },
        actions: [
          { kind: 'resend', at: input.at },
          { kind: 'scheduleResend', dueAt: input.at + interval },
        ],
      };
    }
    case 'delayDue':
      return stay(state);
  }
}

/** The state after `input`, and what the runner must do for it. */
export function next(state: AlarmMachineState, input: AlarmInput, rule: AlarmMachineRule): Transition {
  switch (state.kind) {
    case 'idle':
      return fromIdle(input, rule);
    case 'pending':
      return fromPending(state, input, rule);
    case 'open':
      return fromOpen(state, input, rule);
  }
}
