import {
  REPLACEMENT_STEPS,
  type ReplacementStatus,
  type ReplacementStep,
  type ReplacementStepRow,
  type ResultCode,
} from '@uiot/contracts';

/**
 * The one-click lock replacement procedure (spec §4) as a pure state machine: the steps run in the order
 * of REPLACEMENT_STEPS, one at a time; a failed or pending step is retried until it is done, a done step
 * is never run again, and no step can be skipped.
 */

/** What a device must show for the procedure to start with it. */
export interface ReplacementCandidate {
  id: string;
  regist: boolean;
  mainDeviceId: string | null;
}

/** A procedure that is not Completed: its devices are taken. */
export interface UnfinishedProcedure {
  deviceId: string;
  replacementId: string;
}

export type StartRefusal = Extract<
  keyof typeof ResultCode,
  'ReplacementNotRegistered' | 'ReplacementInvalid' | 'ReplacementInProgress'
>;

export interface ReplacementState {
  status: ReplacementStatus;
  steps: ReplacementStepRow[];
}

/** What running a step gave: done, failed (retry later) or pending (waiting for the device). */
export type StepOutcome =
  | { kind: 'done' }
  | { kind: 'failed'; reason: string; params?: Record<string, string> }
  | { kind: 'pending'; reason: string; params?: Record<string, string> };

const involves = (p: UnfinishedProcedure, id: string) => p.deviceId === id || p.replacementId === id;

/**
 * Why the replacement of `device` by `replacement` cannot start, or null when it can: the device must be
 * registered and not in an unfinished procedure; the replacement another unregistered main device (not
 * attached to one) in no unfinished procedure.
 */
export function canStart(
  device: ReplacementCandidate,
  replacement: ReplacementCandidate | null,
  unfinished: readonly UnfinishedProcedure[],
): StartRefusal | null {
  if (!device.regist) return 'ReplacementNotRegistered';
  if (unfinished.some((p) => involves(p, device.id))) return 'ReplacementInProgress';
  if (
    !replacement ||
    replacement.id === device.id ||
    replacement.regist ||
    replacement.mainDeviceId !== null ||
    unfinished.some((p) => involves(p, replacement.id))
  ) {
    return 'ReplacementInvalid';
  }
  return null;
}

/** A new procedure: nothing executed yet. */
export function initialSteps(): ReplacementStepRow[] {
  return REPLACEMENT_STEPS.map((step) => ({
    step,
    state: 'NotExecuted',
    reason: null,
    reasonParams: null,
    time: null,
  }));
}

export function initialState(): ReplacementState {
  return { status: 'NotExecuted', steps: initialSteps() };
}

/** The step to run now: the first one not done; null once all are done. */
export function nextStep(state: ReplacementState): ReplacementStep | null {
  if (state.status === 'Completed') return null;
  return state.steps.find((s) => s.state !== 'Done')?.step ?? null;
}

/** Whether proceeding may run a step; a Completed procedure is refused with ReplacementFinished. */
export function canProceed(state: ReplacementState): boolean {
  return nextStep(state) !== null;
}

/**
 * The state after `step` ran with `outcome` at `at` (ISO time). Only the next step may receive an
 * outcome: anything else is a programming error and throws.
 */
export function applyOutcome(
  state: ReplacementState,
  step: ReplacementStep,
  outcome: StepOutcome,
  at: string = new Date().toISOString(),
): ReplacementState {
  const expected = nextStep(state);
  if (expected === null) throw new Error(`lock replacement is complete; step ${step} cannot run`);
  if (step !== expected) throw new Error(`lock replacement step ${step} is not the next step (${expected})`);

  const steps = state.steps.map((row): ReplacementStepRow => {
    if (row.step !== step) return row;
    if (outcome.kind === 'done') return { step, state: 'Done', reason: null, reasonParams: null, time: at };
    return {
      step,
      state: outcome.kind === 'failed' ? 'Failed' : 'Pending',
      reason: outcome.reason,
      reasonParams: outcome.params ?? null,
      time: at,
    };
  });

  let status: ReplacementStatus;
  if (outcome.kind === 'failed') status = 'Failed';
  else if (outcome.kind === 'pending') status = 'Pending';
  else status = steps.every((s) => s.state === 'Done') ? 'Completed' : 'Running';
  return { status, steps };
}
