import { z } from 'zod';
import { typeError } from './zod-messages.ts';

/** Mainland China mobile number (spec §5 change-info form). */
export const MAINLAND_MOBILE = /^1[3-9]\d{9}$/;

export const requiredText = (key: 'v.required' | 'v.username' | 'v.password' = 'v.required', max = 64) =>
  z.string({ error: key }).trim().min(1, { error: key }).max(max, { error: 'v.tooLong' });

export const email = z
  .string({ error: 'v.required' })
  .trim()
  .min(1, { error: 'v.required' })
  .max(128, { error: 'v.tooLong' })
  .pipe(z.email({ error: 'v.email' }));

/**
 * A whole number from 0 to `max`, as JSON or query text ("a whole number, 0 or more", or the maximum): the
 * bounds are checked before the integer check, so the first issue of a value out of range names the bound
 * (not the range of a safe integer).
 */
export const wholeNumberUpTo = (max: number) =>
  z.coerce
    .number({ error: typeError('v.integer') })
    .min(0, { error: 'v.integer' })
    .max(max)
    .int({ error: 'v.integer' });

export const optionalMobile = z
  .string()
  .trim()
  .refine((v) => v === '' || MAINLAND_MOBILE.test(v), { error: 'v.mobile' })
  .optional();

/**
 * The years a time of a request may fall in (UTC): what PostgreSQL's timestamptz, JavaScript's ISO texts
 * and the console's pickers all handle. A 5-digit year reached the database as a text it cannot read.
 */
export const TIME_MIN_YEAR = 1970;
export const TIME_MAX_YEAR = 9999;
const TIME_MIN_MS = Date.UTC(TIME_MIN_YEAR, 0, 1);
const TIME_MAX_MS = Date.UTC(TIME_MAX_YEAR + 1, 0, 1) - 1;

/** Why a time text is refused: not a time, or outside the years above; null when it is fine. */
export function timeProblem(text: string): 'v.invalid' | 'v.timeBounds' | null {
  const at = Date.parse(text);
  if (Number.isNaN(at)) return 'v.invalid';
  return at < TIME_MIN_MS || at > TIME_MAX_MS ? 'v.timeBounds' : null;
}

/** Adds the issue of a time text that is given (not empty) and refused. */
export function checkTime(text: string, ctx: z.RefinementCtx): void {
  if (text === '') return;
  const problem = timeProblem(text);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
}

/**
 * A bound of a searched time range (`startTime`, `endTime` of the list queries and exports): an ISO 8601
 * text within the years above; empty is "not given". The range rules (end after start, a year at most)
 * are the services' (`timeRangeProblem`).
 */
export const searchTime = z.string().trim().max(40, { error: 'v.invalid' }).superRefine(checkTime).optional();
