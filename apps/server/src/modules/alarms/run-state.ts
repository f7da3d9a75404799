import type { RunState } from '@uiot/contracts';

/**
 * A device's run state (spec §4: normal, damaged, lowPower, timeOutNotClosed) has two sources: the lock
 * reports one itself, and the server computes others from the damage levels, the power levels and how long
 * the door has stood open. A device has one run state, so the most severe of them is shown. A lock's own
 * non-normal report is kept until the lock reports otherwise; a lock's `normal` only says the lock sees no
 * fault, so it never hides a state the server computed.
 */

/**
 * Most severe first. Damage is a forced or broken lock, a security event; a door left open is the next
 * thing an operator can act on at once; low power is planned maintenance.
 */
export const RUN_STATE_PRECEDENCE = [
  'damaged',
  'timeOutNotClosed',
  'lowPower',
  'normal',
] as const satisfies readonly RunState[];

export interface RunStateInputs {
  /** The run state the lock reported last, if it reported one. */
  reported?: RunState;
  /** Whether the battery falls in a low power level. */
  lowPower: boolean;
  /** Whether the latest damage reading falls in a damage level. */
  damaged: boolean;
  /** Since when the door has stood open (ms); absent while it is closed or not reported. */
  doorOpenSince?: number;
  now: number;
  /** How long a door may stand open (ms); not a positive number: the check is off. */
  doorOpenLimitMs: number;
}

/**
 * When an open door becomes timeOutNotClosed (ms), or null when it never will (door closed, no limit).
 * The runner schedules its check for this time, since no report may arrive while a door just stands open.
 */
export function doorTimeoutAt(doorOpenSince: number | undefined, doorOpenLimitMs: number): number | null {
  if (doorOpenSince === undefined || !Number.isFinite(doorOpenLimitMs) || doorOpenLimitMs <= 0) return null;
  return doorOpenSince + doorOpenLimitMs;
}

/** Whether the door has stood open longer than the limit at `now` (exactly the limit is not longer). */
export function doorOpenTooLong(
  doorOpenSince: number | undefined,
  now: number,
  doorOpenLimitMs: number,
): boolean {
  const timeoutAt = doorTimeoutAt(doorOpenSince, doorOpenLimitMs);
  return timeoutAt !== null && now > timeoutAt;
}

/** The more severe of two run states by {@link RUN_STATE_PRECEDENCE}. */
export function moreSevere(a: RunState, b: RunState): RunState {
  return RUN_STATE_PRECEDENCE.indexOf(a) <= RUN_STATE_PRECEDENCE.indexOf(b) ? a : b;
}

/** The one run state to show: the most severe of the reported state and the computed ones. */
export function combineRunState(inputs: RunStateInputs): RunState {
  const states: RunState[] = [inputs.reported ?? 'normal'];
  if (inputs.damaged) states.push('damaged');
  if (doorOpenTooLong(inputs.doorOpenSince, inputs.now, inputs.doorOpenLimitMs))
    states.push('timeOutNotClosed');
  if (inputs.lowPower) states.push('lowPower');
  return states.reduce(moreSevere);
}
