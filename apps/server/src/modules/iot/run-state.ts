import type { PowerLevelState, RunState } from '@uiot/contracts';
import { type LevelRange, levelOf } from '../levels/index.ts';

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
 * When an open door becomes timeOutNotClosed (ms), or null when it never will (door closed, no limit). No
 * report may arrive while a door just stands open: the run-state pass looks for doors past this time.
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

/** How long damage reports count towards a lock's damage value. */
export const DAMAGE_WINDOW_MS = 30 * 86_400_000;

/** What the computed run states are worked out from: the levels and the door-open time parameter. */
export interface RunStateFacts {
  powerLevels: readonly (LevelRange & { state: PowerLevelState })[];
  damageLevels: readonly LevelRange[];
  /** How long a door may stand open (ms); 0: the check is off. */
  doorOpenLimitMs: number;
}

/** A device's runtime data as the run state reads it. */
export interface RunStateRow {
  reportedRunState: RunState | null;
  battery: number | null;
  /** The lock's damage reports of the last 30 days. */
  damageCount: number;
  /** Since when the door has stood open (ms), null while closed or not reported. */
  doorOpenSince: number | null;
}

/** Whether a battery falls in a power level whose state is lowPower (unknown battery: no). */
export function isLowPower(battery: number | null, facts: RunStateFacts): boolean {
  return levelOf(battery, facts.powerLevels)?.state === 'lowPower';
}

/**
 * Whether a damage value makes the lock damaged: it falls in a damage level. A lock with no damage report
 * in the window is never damaged by the levels, even where a level starts at 0.
 */
export function isDamaged(damageCount: number, facts: RunStateFacts): boolean {
  return damageCount > 0 && levelOf(damageCount, facts.damageLevels) !== null;
}

/**
 * The run state to store for a device at `now`: the most severe of the lock's own and the computed ones;
 * null (unknown) while the lock has reported none and nothing is computed.
 */
export function effectiveRunState(row: RunStateRow, facts: RunStateFacts, now: number): RunState | null {
  const state = combineRunState({
    ...(row.reportedRunState ? { reported: row.reportedRunState } : {}),
    lowPower: isLowPower(row.battery, facts),
    damaged: isDamaged(row.damageCount, facts),
    ...(row.doorOpenSince !== null ? { doorOpenSince: row.doorOpenSince } : {}),
    now,
    doorOpenLimitMs: facts.doorOpenLimitMs,
  });
  return state === 'normal' && row.reportedRunState === null ? null : state;
}

/**
 * What the database needs to know to pass over rows whose run state cannot change (most rows of a batch):
 * a row needs working out only when its shown state differs from the lock's, its battery is at or below
 * the highest end of a lowPower level, it has damage reports while damage levels exist, or its door has
 * stood open past the limit.
 */
export interface RunStateHints {
  /** The highest end of a lowPower level; 0 when there is none. */
  lowPowerUpTo: number;
  damageLevels: boolean;
  doorOpenLimitMs: number;
}

export function runStateHints(facts: RunStateFacts): RunStateHints {
  const lowEnds = facts.powerLevels.filter((l) => l.state === 'lowPower').map((l) => l.endValue);
  return {
    lowPowerUpTo: lowEnds.length > 0 ? Math.max(...lowEnds) : 0,
    damageLevels: facts.damageLevels.length > 0,
    doorOpenLimitMs: facts.doorOpenLimitMs,
  };
}
