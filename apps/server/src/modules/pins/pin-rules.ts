import {
  type FieldIssue,
  PIN_MAX_WEEKS,
  PIN_VALID_HOURS,
  type PinForm,
  type PinUseState,
  WORKING_HOURS,
} from '@uiot/contracts';
import {
  activationDeadline,
  hourStart,
  localDay,
  localHour,
  type PinSpec,
  pinSpan,
  pinWindows,
} from '@uiot/device-protocol';
import { CONSOLE_UTC_OFFSET_HOURS } from '../../lib/console-day.ts';

/**
 * The rules of PIN generation and use state (spec §4, §5, §9; docs/offline-pins.md), pure: the caller passes
 * the time. Windows are read in the station clock, which the locks are provisioned with.
 */

const MINUTE_MS = 60_000;

/** The station's clock, in minutes east of UTC (the console's clock, spec §9). */
export const STATION_UTC_OFFSET_MINUTES = CONSOLE_UTC_OFFSET_HOURS * 60;

/** What a generation asks for, before a slot is chosen: the spec without its slot, and its window. */
export type PlannedPin =
  | { type: 'once' | 'timePeriod'; startHour: number; start: number; end: number; deadline: number }
  /** From its start to its end (whole minutes), stored on the lock: no activation deadline. */
  | { type: 'durable'; start: number; end: number; deadline: number }
  | {
      type: 'weekly';
      startWeek: number;
      weeks: number;
      weekdays: number;
      start: number;
      end: number;
      deadline: number;
    };

/** The weekday bit mask of a weekly PIN (bit 0 Monday). */
export function weekdayMask(days: readonly number[]): number {
  return days.reduce((mask, day) => mask | (1 << day), 0);
}

/** The weekdays of a mask, in order. */
export function weekdaysOf(mask: number): number[] {
  return [0, 1, 2, 3, 4, 5, 6].filter((day) => (mask & (1 << day)) !== 0);
}

/** Whether a station hour falls in working hours (Monday–Friday, WORKING_HOURS, station time). */
export function isWorkingHour(hour: number, offsetMinutes = STATION_UTC_OFFSET_MINUTES): boolean {
  const at = hourStart(hour, offsetMinutes);
  const { weekday } = localDay(at, offsetMinutes);
  const hourOfDay = ((hour % 24) + 24) % 24;
  return weekday < 5 && hourOfDay >= WORKING_HOURS.from && hourOfDay < WORKING_HOURS.to;
}

/**
 * The PIN a valid form asks for, or the field issues that stop it. Once and time-period PINs start at the
 * start's whole hour and last 2 and 4 hours, so the end may not be later than that; a time-period PIN's
 * hours lie outside working hours; a weekly PIN runs whole weeks, from the start's week to the end's, at most
 * seven. A window already over is refused.
 */
export function planPin(
  form: Pick<PinForm, 'type' | 'startTime' | 'endTime' | 'weekdays'>,
  now: number,
  offsetMinutes = STATION_UTC_OFFSET_MINUTES,
): { plan: PlannedPin } | { issues: FieldIssue[] } {
  const startAt = Date.parse(form.startTime);
  const endAt = Date.parse(form.endTime);
  if (form.type === 'durable') {
    const start = Math.floor(startAt / MINUTE_MS) * MINUTE_MS;
    const end = Math.max(Math.ceil(endAt / MINUTE_MS) * MINUTE_MS, start + MINUTE_MS);
    if (end <= now) return { issues: [{ path: 'endTime', message: 'v.pinWindowPast' }] };
    return { plan: { type: 'durable', start, end, deadline: end } };
  }
  const issues: FieldIssue[] = [];
  let spec: Exclude<PinSpec, { type: 'erase' }>;
  if (form.type === 'weekly') {
    const first = localDay(startAt, offsetMinutes).week;
    const weeks = localDay(endAt, offsetMinutes).week - first + 1;
    if (weeks > PIN_MAX_WEEKS) {
      issues.push({ path: 'endTime', message: 'v.pinWeeks', params: { max: PIN_MAX_WEEKS } });
    }
    spec = {
      type: 'weekly',
      startWeek: first,
      weeks: Math.min(weeks, PIN_MAX_WEEKS),
      weekdays: weekdayMask(form.weekdays),
    };
  } else {
    const startHour = localHour(startAt, offsetMinutes);
    const hours = PIN_VALID_HOURS[form.type];
    if (endAt > hourStart(startHour + hours, offsetMinutes)) {
      issues.push({
        path: 'endTime',
        message: form.type === 'once' ? 'v.pinOnceLength' : 'v.pinPeriodLength',
      });
    }
    if (form.type === 'timePeriod') {
      for (let h = startHour; h < startHour + hours; h++) {
        if (isWorkingHour(h, offsetMinutes)) {
          issues.push({ path: 'startTime', message: 'v.pinNonWorking' });
          break;
        }
      }
    }
    spec = { type: form.type, slot: 0, startHour };
  }
  const span = pinSpan(spec, offsetMinutes);
  if (issues.length === 0 && span.end <= now) issues.push({ path: 'endTime', message: 'v.pinWindowPast' });
  if (issues.length > 0) return { issues };
  const deadline = activationDeadline(spec, offsetMinutes);
  if (spec.type === 'weekly') {
    const { startWeek, weeks, weekdays } = spec;
    return {
      plan: { type: 'weekly', startWeek, weeks, weekdays, start: span.start, end: span.end, deadline },
    };
  }
  return { plan: { type: spec.type, startHour: spec.startHour, start: span.start, end: span.end, deadline } };
}

/** The hour an erase code compares a PIN's start with (docs/offline-pins.md). */
export function startHourOfPlan(plan: PlannedPin, offsetMinutes = STATION_UTC_OFFSET_MINUTES): number {
  return plan.type === 'once' || plan.type === 'timePeriod'
    ? plan.startHour
    : localHour(plan.start, offsetMinutes);
}

/** The windows of a planned PIN in which the "who may open" decision is asked: its first and last moments. */
export function decisionMoments(plan: PlannedPin): number[] {
  return [plan.start, plan.end - 1];
}

/** A stored PIN as its use state reads it. */
export interface PinStateFacts {
  type: 'once' | 'timePeriod' | 'weekly' | 'durable';
  endTime: number;
  activationDeadline: number;
  usageTime: number | null;
  revokedAt: number | null;
  deletionConfirmedAt: number | null;
}

/**
 * Use state (spec §4): disabled once revoked or erased; expired after its window, after a once-PIN's use, or
 * unused past its activation deadline; enabled otherwise. A disabled PIN is pending deletion while the lock
 * could still accept it: the lock has not confirmed and the window is not over.
 */
export function pinUseState(
  pin: PinStateFacts,
  now: number,
): { useState: PinUseState; pendingDeletion: boolean } {
  if (pin.revokedAt !== null) {
    return { useState: 'disabled', pendingDeletion: pin.deletionConfirmedAt === null && now < pin.endTime };
  }
  const expired =
    now >= pin.endTime ||
    (pin.type === 'once' && pin.usageTime !== null) ||
    (pin.usageTime === null && now >= pin.activationDeadline);
  return { useState: expired ? 'expire' : 'enabled', pendingDeletion: false };
}

/** What decides whether a stored PIN's code may still be shown, or must still be kept. */
export interface PinCodeFacts {
  generatorId: string | null;
  /** The code is held (drawn, not yet dropped). */
  drawn: boolean;
  /** The lock confirmed it holds the PIN. */
  stored: boolean;
  shown: boolean;
}

/**
 * Whether the code of a PIN may be shown to `staffId` now (docs/offline-pins.md): once, to its generator,
 * while the PIN is enabled and its code is held. Only a durable PIN's code is shown after its generation: it
 * is drawn when the lock wakes.
 */
export function mayShowCode(pin: PinCodeFacts, useState: PinUseState, staffId: string): boolean {
  return useState === 'enabled' && pin.drawn && !pin.shown && pin.generatorId === staffId;
}

/**
 * Whether the server must still keep a stored PIN's code: until the lock confirms it holds it (it is sent
 * again whenever the lock is heard) and until its generator has seen it, whichever is later.
 */
export function keepsCode(pin: Pick<PinCodeFacts, 'stored' | 'shown'>): boolean {
  return !pin.stored || !pin.shown;
}

/** How long a deletePin command may wait for the lock: until the PIN's window ends, at most 10 minutes per try. */
export function deletionExpirySeconds(endTime: number, now: number): number {
  return Math.max(1, Math.min(600, Math.ceil((endTime - now) / 1000)));
}

/** The hour an erase code issued now carries, and until when the lock accepts it. */
export function eraseHour(
  now: number,
  offsetMinutes = STATION_UTC_OFFSET_MINUTES,
): { hour: number; validUntil: number } {
  const hour = localHour(now, offsetMinutes);
  return { hour, validUntil: pinWindows({ type: 'erase', hour }, offsetMinutes)[0]!.end };
}
