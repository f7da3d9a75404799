import {
  type CommandState,
  FINAL_COMMAND_STATES,
  REPLACEMENT_STEPS,
  type ReplacementOwnReason,
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

/**
 * What running a step gave: done, failed (retry later) or pending (waiting for the device); with the
 * device command the step sent, if it sent one.
 */
export type StepOutcome =
  | { kind: 'done'; commandId?: string }
  | { kind: 'failed'; reason: string; params?: Record<string, string>; commandId?: string }
  | { kind: 'pending'; reason: string; params?: Record<string, string>; commandId?: string };

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
    commandId: null,
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
    const commandId = outcome.commandId ?? null;
    if (outcome.kind === 'done') {
      return { step, state: 'Done', reason: null, reasonParams: null, time: at, commandId };
    }
    return {
      step,
      state: outcome.kind === 'failed' ? 'Failed' : 'Pending',
      reason: outcome.reason,
      reasonParams: outcome.params ?? null,
      time: at,
      commandId,
    };
  });

  let status: ReplacementStatus;
  if (outcome.kind === 'failed') status = 'Failed';
  else if (outcome.kind === 'pending') status = 'Pending';
  else status = steps.every((s) => s.state === 'Done') ? 'Completed' : 'Running';
  return { status, steps };
}

// SendOldPassword: the password goes to the replacement as a `setPassword` device command, and the step
// follows that command. Issuing it happens outside the procedure's transaction (no transaction is held
// while a command goes out), so the step is first claimed: a concurrent proceed sees the claim and leaves
// the step alone instead of sending a second command.

/** The SendOldPassword step's reasons (REPLACEMENT_OWN_REASONS, described there). */
export const PASSWORD_STEP_REASONS = {
  noOldPassword: 'noOldPassword',
  sendingPassword: 'sendingPassword',
  awaitingLockAnswer: 'awaitingLockAnswer',
  passwordNotTaken: 'passwordNotTaken',
} as const satisfies Record<string, ReplacementOwnReason>;

/** How long a claim holds: past it, the call that claimed the step is taken to have died, and another sends. */
export const PASSWORD_CLAIM_MS = 60_000;

/** The final states in which the lock (or its NB-IoT platform) confirmed the command. */
const CONFIRMED = new Set<CommandState>(['Success', 'NB_Successful']);
const FINAL = new Set<CommandState>(FINAL_COMMAND_STATES);

/** The `setPassword` command a SendOldPassword step sent, as it stands now. */
export interface PasswordCommand {
  id: string;
  state: CommandState;
}

/** What proceeding does with the SendOldPassword step. */
export type PasswordStepAction =
  /** Fetch the old password and send it (again) in a new command. */
  | { do: 'send' }
  /** Another call is sending it right now: leave the step as it is. */
  | { do: 'wait' }
  /** The step's command has moved on: record what it means for the step. */
  | { do: 'record'; outcome: StepOutcome };

/** The step outcome a `setPassword` command stands for: done once confirmed, failed once ended otherwise. */
export function passwordOutcome(command: PasswordCommand): StepOutcome {
  const about = { command: command.id, state: command.state };
  if (CONFIRMED.has(command.state)) return { kind: 'done', commandId: command.id };
  if (FINAL.has(command.state)) {
    return {
      kind: 'failed',
      reason: PASSWORD_STEP_REASONS.passwordNotTaken,
      params: about,
      commandId: command.id,
    };
  }
  return {
    kind: 'pending',
    reason: PASSWORD_STEP_REASONS.awaitingLockAnswer,
    params: about,
    commandId: command.id,
  };
}

/** The claim a proceed puts on the step before it sends the command. */
export const PASSWORD_CLAIM: StepOutcome = { kind: 'pending', reason: PASSWORD_STEP_REASONS.sendingPassword };

/** Whether the step still holds the claim made at `claimedAt` (ISO time) and no command has replaced it. */
export function holdsClaim(step: ReplacementStepRow, claimedAt: string): boolean {
  return (
    step.state === 'Pending' &&
    step.commandId === null &&
    step.reason === PASSWORD_STEP_REASONS.sendingPassword &&
    step.time === claimedAt
  );
}

/** Whether the step holds a live claim at `now` (ms since epoch): a command is being sent for it. */
export function isClaimed(step: ReplacementStepRow, now: number): boolean {
  return step.time !== null && holdsClaim(step, step.time) && now - Date.parse(step.time) < PASSWORD_CLAIM_MS;
}

/**
 * What proceeding does with the SendOldPassword step at `now`, given the command it sent last (null when it
 * sent none, or that command is gone). A pending step follows its command; a failed one (a password that
 * was missing, a command that ended unconfirmed) sends again, as does a step never run or a dead claim.
 */
export function passwordStepAction(
  step: ReplacementStepRow,
  command: PasswordCommand | null,
  now: number,
): PasswordStepAction {
  if (isClaimed(step, now)) return { do: 'wait' };
  if (step.state === 'Pending' && command !== null && command.id === step.commandId) {
    return { do: 'record', outcome: passwordOutcome(command) };
  }
  return { do: 'send' };
}
