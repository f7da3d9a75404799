import { z } from 'zod';
import { optionalText } from './org-forms.ts';

/** The run state a power level stands for (spec §3 Power level state, §4 run states). */
export const POWER_LEVEL_STATES = ['normal', 'lowPower'] as const;
export type PowerLevelState = (typeof POWER_LEVEL_STATES)[number];

/** Largest value of a damage level's range: a count, far beyond any a lock reports. */
export const DAMAGE_VALUE_MAX = 1_000_000;
/** Largest level number and availableDays: far beyond any real scale. */
const WHOLE_MAX = 100_000;

/** A number as JSON carries it: an empty field is required, anything else not a number. */
const number = () =>
  z.number({
    error: (issue) => {
      if (issue.code !== 'invalid_type') return undefined;
      return issue.input === undefined || issue.input === null ? 'v.required' : 'v.number';
    },
  });

/** The bounds before the integer check: the first issue of a value out of range names its bound. */
const whole = (min: number) =>
  number()
    .min(min, { error: min === 0 ? 'v.integer' : 'v.levelNumber' })
    .max(WHOLE_MAX)
    .int({ error: min === 0 ? 'v.integer' : 'v.levelNumber' });

/** A range bound: a finite number from `min` to `max`, with at most two decimals. */
const bound = (min: number, max: number, message: string) =>
  number()
    .min(min, { error: message })
    .max(max, { error: message })
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, { error: message });

/** Spec §5, ranges numeric: a level's range is start ≤ value < end, so the start must be below the end. */
function startBelowEnd(range: { startValue: number; endValue: number }, ctx: z.RefinementCtx): void {
  if (!(range.startValue < range.endValue)) {
    ctx.addIssue({ code: 'custom', path: ['endValue'], message: 'v.endAboveStart' });
  }
}

/**
 * Power (battery) level (spec §3): the battery range in % (0–100), the days a lock is expected to keep
 * working from it, and the run state it stands for.
 */
export const powerLevelForm = z
  .object({
    level: whole(1),
    startValue: bound(0, 100, 'v.percent'),
    endValue: bound(0, 100, 'v.percent'),
    availableDays: whole(0),
    state: z.enum(POWER_LEVEL_STATES),
  })
  .superRefine(startBelowEnd);
export type PowerLevelForm = z.infer<typeof powerLevelForm>;

/**
 * Damage level (spec §3): a range of damage events, the count a lock reported over the counting window
 * (docs/alarms.md), and what the level means to the operator.
 */
export const damageLevelForm = z
  .object({
    level: whole(1),
    description: optionalText(255),
    startValue: bound(0, DAMAGE_VALUE_MAX, 'v.damageValue'),
    endValue: bound(0, DAMAGE_VALUE_MAX, 'v.damageValue'),
  })
  .superRefine(startBelowEnd);
export type DamageLevelForm = z.infer<typeof damageLevelForm>;
