import {
  COMMAND_STATES,
  FINAL_COMMAND_STATES,
  REPLACEMENT_STEPS,
  type ReplacementStep,
} from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import {
  applyOutcome,
  canProceed,
  canStart,
  holdsClaim,
  initialState,
  initialSteps,
  isClaimed,
  nextStep,
  PASSWORD_CLAIM,
  PASSWORD_CLAIM_MS,
  passwordOutcome,
  passwordStepAction,
  type ReplacementCandidate,
  type ReplacementState,
  type StepOutcome,
} from './replacement-machine.ts';

const T1 = '2026-01-01T00:00:00.000Z';
const T2 = '2026-01-02T00:00:00.000Z';
const done: StepOutcome = { kind: 'done' };
const failed = (reason = 'ReplacementInvalid', params?: Record<string, string>): StepOutcome => ({
  kind: 'failed',
  reason,
  params,
});
const pending = (reason = 'awaitingLockAnswer'): StepOutcome => ({ kind: 'pending', reason });

const candidate = (id: string, extra: Partial<ReplacementCandidate> = {}): ReplacementCandidate => ({
  id,
  regist: false,
  mainDeviceId: null,
  ...extra,
});
const oldLock = candidate('old', { regist: true });
const newLock = candidate('new');

/** The state after the first `n` steps are done. */
function doneUpTo(n: number): ReplacementState {
  let state = initialState();
  for (const step of REPLACEMENT_STEPS.slice(0, n)) state = applyOutcome(state, step, done, T1);
  return state;
}

const stateOf = (s: ReplacementState, step: ReplacementStep) => s.steps.find((r) => r.step === step)!;

describe('canStart', () => {
  it('accepts a registered device and an unregistered main device in no procedure', () => {
    expect(canStart(oldLock, newLock, [])).toBeNull();
    expect(canStart(oldLock, newLock, [{ deviceId: 'x', replacementId: 'y' }])).toBeNull();
  });

  it('refuses an unregistered device with ReplacementNotRegistered, before anything else', () => {
    expect(canStart(candidate('old'), newLock, [])).toBe('ReplacementNotRegistered');
    expect(canStart(candidate('old'), null, [{ deviceId: 'old', replacementId: 'z' }])).toBe(
      'ReplacementNotRegistered',
    );
  });

  it('refuses a device in an unfinished procedure, as the old lock or as the replacement', () => {
    expect(canStart(oldLock, newLock, [{ deviceId: 'old', replacementId: 'z' }])).toBe(
      'ReplacementInProgress',
    );
    expect(canStart(oldLock, newLock, [{ deviceId: 'z', replacementId: 'old' }])).toBe(
      'ReplacementInProgress',
    );
    // Also when the same replacement is asked for again.
    expect(canStart(oldLock, newLock, [{ deviceId: 'old', replacementId: 'new' }])).toBe(
      'ReplacementInProgress',
    );
  });

  it('refuses a missing replacement', () => {
    expect(canStart(oldLock, null, [])).toBe('ReplacementInvalid');
  });

  it('refuses the device itself as its replacement', () => {
    expect(canStart(oldLock, candidate('old'), [])).toBe('ReplacementInvalid');
  });

  it('refuses a registered replacement', () => {
    expect(canStart(oldLock, candidate('new', { regist: true }), [])).toBe('ReplacementInvalid');
  });

  it('refuses an attached device as the replacement', () => {
    expect(canStart(oldLock, candidate('new', { mainDeviceId: 'main' }), [])).toBe('ReplacementInvalid');
  });

  it('refuses a replacement in another unfinished procedure, in either role', () => {
    expect(canStart(oldLock, newLock, [{ deviceId: 'z', replacementId: 'new' }])).toBe('ReplacementInvalid');
    expect(canStart(oldLock, newLock, [{ deviceId: 'new', replacementId: 'z' }])).toBe('ReplacementInvalid');
  });
});

describe('initial state', () => {
  it('has every step not executed, in the order of the spec', () => {
    expect(initialSteps()).toEqual(
      ['Replace', 'InformationTo', 'ReRegister', 'CancelRegistration', 'SendOldPassword'].map((step) => ({
        step,
        state: 'NotExecuted',
        reason: null,
        reasonParams: null,
        time: null,
        commandId: null,
      })),
    );
    expect(initialState().status).toBe('NotExecuted');
  });

  it('starts with Replace and may proceed', () => {
    expect(nextStep(initialState())).toBe('Replace');
    expect(canProceed(initialState())).toBe(true);
  });
});

describe('nextStep', () => {
  it('is the first step not done, whatever its state', () => {
    expect(nextStep(doneUpTo(2))).toBe('ReRegister');
    const failedState = applyOutcome(doneUpTo(1), 'InformationTo', failed(), T1);
    expect(nextStep(failedState)).toBe('InformationTo');
    const pendingState = applyOutcome(doneUpTo(4), 'SendOldPassword', pending(), T1);
    expect(nextStep(pendingState)).toBe('SendOldPassword');
  });

  it('is none when completed', () => {
    expect(nextStep(doneUpTo(5))).toBeNull();
    expect(nextStep({ status: 'Completed', steps: initialSteps() })).toBeNull();
  });
});

describe('applyOutcome', () => {
  it('done marks the step done with its time and the procedure running', () => {
    const state = applyOutcome(initialState(), 'Replace', done, T1);
    expect(state.status).toBe('Running');
    expect(stateOf(state, 'Replace')).toEqual({
      step: 'Replace',
      state: 'Done',
      reason: null,
      reasonParams: null,
      time: T1,
      commandId: null,
    });
    expect(state.steps.slice(1).every((s) => s.state === 'NotExecuted')).toBe(true);
    expect(nextStep(state)).toBe('InformationTo');
  });

  it('runs the steps in order, each done step advancing to the following one', () => {
    let state = initialState();
    REPLACEMENT_STEPS.forEach((step, i) => {
      expect(nextStep(state)).toBe(step);
      state = applyOutcome(state, step, done, T1);
      expect(state.status).toBe(i === REPLACEMENT_STEPS.length - 1 ? 'Completed' : 'Running');
    });
    expect(state.steps.every((s) => s.state === 'Done')).toBe(true);
  });

  it('the last step done completes the procedure, which cannot proceed any more', () => {
    const state = doneUpTo(5);
    expect(state.status).toBe('Completed');
    expect(canProceed(state)).toBe(false);
  });

  it('failed marks the step failed with its reason and the procedure failed', () => {
    const state = applyOutcome(doneUpTo(2), 'ReRegister', failed('DeviceNotRegistered', { name: 'L1' }), T1);
    expect(state.status).toBe('Failed');
    expect(stateOf(state, 'ReRegister')).toEqual({
      step: 'ReRegister',
      state: 'Failed',
      reason: 'DeviceNotRegistered',
      reasonParams: { name: 'L1' },
      time: T1,
      commandId: null,
    });
    expect(canProceed(state)).toBe(true);
  });

  it('pending marks the step pending with its reason and the procedure pending', () => {
    const state = applyOutcome(doneUpTo(4), 'SendOldPassword', pending(), T1);
    expect(state.status).toBe('Pending');
    expect(stateOf(state, 'SendOldPassword')).toMatchObject({
      state: 'Pending',
      reason: 'awaitingLockAnswer',
      reasonParams: null,
      time: T1,
    });
    expect(canProceed(state)).toBe(true);
  });

  it('a failed step retried successfully continues with the following step', () => {
    const failedState = applyOutcome(doneUpTo(1), 'InformationTo', failed(), T1);
    const retried = applyOutcome(failedState, 'InformationTo', done, T2);
    expect(retried.status).toBe('Running');
    expect(stateOf(retried, 'InformationTo')).toEqual({
      step: 'InformationTo',
      state: 'Done',
      reason: null,
      reasonParams: null,
      time: T2,
      commandId: null,
    });
    expect(nextStep(retried)).toBe('ReRegister');
  });

  it('a failed step may fail again, with the new reason', () => {
    const once = applyOutcome(initialState(), 'Replace', failed('ReplacementInvalid'), T1);
    const twice = applyOutcome(once, 'Replace', failed('ReplacementNotRegistered'), T2);
    expect(twice.status).toBe('Failed');
    expect(stateOf(twice, 'Replace')).toMatchObject({
      state: 'Failed',
      reason: 'ReplacementNotRegistered',
      time: T2,
    });
  });

  it('a failed step may turn pending, and a pending one fail', () => {
    const failedState = applyOutcome(doneUpTo(4), 'SendOldPassword', failed('noOldPassword'), T1);
    const pendingState = applyOutcome(failedState, 'SendOldPassword', pending(), T2);
    expect(pendingState.status).toBe('Pending');
    expect(stateOf(pendingState, 'SendOldPassword')).toMatchObject({
      state: 'Pending',
      reason: 'awaitingLockAnswer',
    });
    const failedAgain = applyOutcome(pendingState, 'SendOldPassword', failed('noOldPassword'), T2);
    expect(failedAgain.status).toBe('Failed');
    expect(stateOf(failedAgain, 'SendOldPassword')).toMatchObject({
      state: 'Failed',
      reason: 'noOldPassword',
    });
  });

  it('pending stays pending when the outcome is pending again', () => {
    const once = applyOutcome(doneUpTo(4), 'SendOldPassword', pending(), T1);
    const again = applyOutcome(once, 'SendOldPassword', pending(), T2);
    expect(again.status).toBe('Pending');
    expect(stateOf(again, 'SendOldPassword')).toMatchObject({ state: 'Pending', time: T2 });
    expect(nextStep(again)).toBe('SendOldPassword');
  });

  it('a pending step that is confirmed completes the procedure', () => {
    const pendingState = applyOutcome(doneUpTo(4), 'SendOldPassword', pending(), T1);
    const confirmed = applyOutcome(pendingState, 'SendOldPassword', done, T2);
    expect(confirmed.status).toBe('Completed');
  });

  it('a pending step in the middle keeps the following steps waiting', () => {
    const state = applyOutcome(doneUpTo(1), 'InformationTo', pending(), T1);
    expect(state.status).toBe('Pending');
    expect(state.steps.slice(2).every((s) => s.state === 'NotExecuted')).toBe(true);
    expect(() => applyOutcome(state, 'ReRegister', done, T2)).toThrow();
  });

  it('refuses to skip a step', () => {
    expect(() => applyOutcome(initialState(), 'InformationTo', done, T1)).toThrow(/not the next step/);
    expect(() => applyOutcome(doneUpTo(2), 'SendOldPassword', done, T1)).toThrow(/not the next step/);
    const failedState = applyOutcome(doneUpTo(1), 'InformationTo', failed(), T1);
    expect(() => applyOutcome(failedState, 'ReRegister', done, T2)).toThrow(/not the next step/);
  });

  it('never runs a done step again', () => {
    const state = doneUpTo(3);
    for (const step of REPLACEMENT_STEPS.slice(0, 3)) {
      expect(() => applyOutcome(state, step, done, T2)).toThrow(/not the next step/);
      expect(() => applyOutcome(state, step, failed(), T2)).toThrow(/not the next step/);
    }
  });

  it('takes no outcome once completed', () => {
    const state = doneUpTo(5);
    for (const step of REPLACEMENT_STEPS) {
      expect(() => applyOutcome(state, step, done, T2)).toThrow(/complete/);
    }
  });

  it('leaves the given state unchanged', () => {
    const state = initialState();
    const copy = structuredClone(state);
    applyOutcome(state, 'Replace', done, T1);
    expect(state).toEqual(copy);
  });

  it('stamps the current time when none is given', () => {
    const before = Date.now();
    const state = applyOutcome(initialState(), 'Replace', done);
    const time = Date.parse(stateOf(state, 'Replace').time!);
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(Date.now());
  });
});

describe('applyOutcome with a device command', () => {
  it('keeps the command the step sent, whatever the outcome', () => {
    const sent = applyOutcome(doneUpTo(4), 'SendOldPassword', { ...pending(), commandId: 'c1' }, T1);
    expect(stateOf(sent, 'SendOldPassword').commandId).toBe('c1');
    const done = applyOutcome(sent, 'SendOldPassword', { kind: 'done', commandId: 'c1' }, T2);
    expect(stateOf(done, 'SendOldPassword')).toEqual({
      step: 'SendOldPassword',
      state: 'Done',
      reason: null,
      reasonParams: null,
      time: T2,
      commandId: 'c1',
    });
    const failedAgain = applyOutcome(sent, 'SendOldPassword', { ...failed('noOldPassword') }, T2);
    expect(stateOf(failedAgain, 'SendOldPassword').commandId).toBeNull();
  });
});

describe('SendOldPassword: the setPassword command', () => {
  const NOW = Date.parse(T1);
  const at = (ms: number) => new Date(NOW + ms).toISOString();
  /** The SendOldPassword step after `outcome` at `time`. */
  const stepAfter = (outcome: StepOutcome, time = T1) =>
    stateOf(applyOutcome(doneUpTo(4), 'SendOldPassword', outcome, time), 'SendOldPassword');
  const notRun = stateOf(doneUpTo(4), 'SendOldPassword');
  const claimed = stepAfter(PASSWORD_CLAIM);
  const waiting = stepAfter({ kind: 'pending', reason: 'awaitingLockAnswer', commandId: 'c1' });
  const notTaken = stepAfter({ kind: 'failed', reason: 'passwordNotTaken', commandId: 'c1' });

  it('is done once the lock (or its NB-IoT platform) confirmed it', () => {
    expect(passwordOutcome({ id: 'c1', state: 'Success' })).toEqual({ kind: 'done', commandId: 'c1' });
    expect(passwordOutcome({ id: 'c1', state: 'NB_Successful' })).toEqual({ kind: 'done', commandId: 'c1' });
  });

  it('has failed once the command ended any other way, naming the command and its state', () => {
    const unconfirmed = FINAL_COMMAND_STATES.filter((s) => s !== 'Success' && s !== 'NB_Successful');
    expect(unconfirmed).toEqual(['Failure', 'NB_Failed', 'NB_Expired', 'NB_Timeout', 'NB_Canceled']);
    for (const state of unconfirmed) {
      expect(passwordOutcome({ id: 'c1', state })).toEqual({
        kind: 'failed',
        reason: 'passwordNotTaken',
        params: { command: 'c1', state },
        commandId: 'c1',
      });
    }
  });

  it('waits for the lock while the command is open, naming the command and how far it got', () => {
    const open = COMMAND_STATES.filter((s) => !FINAL_COMMAND_STATES.includes(s));
    expect(open).toEqual(['Waitting', 'NB_Pending', 'NB_Send', 'NB_Delivered', 'NB_UnKnow']);
    for (const state of open) {
      expect(passwordOutcome({ id: 'c1', state })).toEqual({
        kind: 'pending',
        reason: 'awaitingLockAnswer',
        params: { command: 'c1', state },
        commandId: 'c1',
      });
    }
  });

  it('sends when the step never ran, or failed (no password, a command not taken)', () => {
    expect(passwordStepAction(notRun, null, NOW)).toEqual({ do: 'send' });
    expect(passwordStepAction(stepAfter(failed('noOldPassword')), null, NOW)).toEqual({ do: 'send' });
    // A failed step sends a new command even though its last one is still known.
    expect(passwordStepAction(notTaken, { id: 'c1', state: 'NB_Timeout' }, NOW)).toEqual({ do: 'send' });
  });

  it('follows the command of a pending step', () => {
    expect(passwordStepAction(waiting, { id: 'c1', state: 'Success' }, NOW)).toEqual({
      do: 'record',
      outcome: { kind: 'done', commandId: 'c1' },
    });
    expect(passwordStepAction(waiting, { id: 'c1', state: 'NB_Delivered' }, NOW)).toEqual({
      do: 'record',
      outcome: passwordOutcome({ id: 'c1', state: 'NB_Delivered' }),
    });
    expect(passwordStepAction(waiting, { id: 'c1', state: 'Failure' }, NOW)).toEqual({
      do: 'record',
      outcome: passwordOutcome({ id: 'c1', state: 'Failure' }),
    });
  });

  it('sends again when the command of a pending step is gone', () => {
    expect(passwordStepAction(waiting, null, NOW)).toEqual({ do: 'send' });
    expect(passwordStepAction(waiting, { id: 'other', state: 'Success' }, NOW)).toEqual({ do: 'send' });
  });

  it('leaves a step alone while another call is sending its command, and takes over a dead claim', () => {
    expect(isClaimed(claimed, NOW)).toBe(true);
    expect(passwordStepAction(claimed, null, NOW)).toEqual({ do: 'wait' });
    expect(passwordStepAction(claimed, null, NOW + PASSWORD_CLAIM_MS - 1)).toEqual({ do: 'wait' });
    expect(isClaimed(claimed, NOW + PASSWORD_CLAIM_MS)).toBe(false);
    expect(passwordStepAction(claimed, null, NOW + PASSWORD_CLAIM_MS)).toEqual({ do: 'send' });
    expect(isClaimed(waiting, NOW)).toBe(false);
    expect(isClaimed(notRun, NOW)).toBe(false);
  });

  it('knows whether a claim is still the one made at a time', () => {
    expect(holdsClaim(claimed, T1)).toBe(true);
    expect(holdsClaim(claimed, at(1))).toBe(false);
    // Taken over by a later call, or replaced by its command.
    expect(holdsClaim(stepAfter(PASSWORD_CLAIM, at(PASSWORD_CLAIM_MS)), T1)).toBe(false);
    expect(holdsClaim(waiting, T1)).toBe(false);
    expect(holdsClaim(notRun, T1)).toBe(false);
  });
});
