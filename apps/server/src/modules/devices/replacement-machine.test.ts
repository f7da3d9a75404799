import { REPLACEMENT_STEPS, type ReplacementStep } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import {
  applyOutcome,
  canProceed,
  canStart,
  initialState,
  initialSteps,
  nextStep,
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
const pending = (reason = 'awaitingCommandService'): StepOutcome => ({ kind: 'pending', reason });

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
    });
    expect(canProceed(state)).toBe(true);
  });

  it('pending marks the step pending with its reason and the procedure pending', () => {
    const state = applyOutcome(doneUpTo(4), 'SendOldPassword', pending(), T1);
    expect(state.status).toBe('Pending');
    expect(stateOf(state, 'SendOldPassword')).toMatchObject({
      state: 'Pending',
      reason: 'awaitingCommandService',
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
      reason: 'awaitingCommandService',
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
