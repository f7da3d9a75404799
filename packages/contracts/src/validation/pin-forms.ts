import { z } from 'zod';
import { requiredTime } from './device-formats.ts';

/**
 * Offline PINs (spec §3 PIN, §4 use states and types, §5 generation, §9 validity; docs/offline-pins.md): the
 * values both sides share. The windows themselves are computed by the server in the station's clock.
 */

/**
 * PIN types (spec §4): once (2 h, one use), timePeriod (4 h outside working hours, any use), weekly (00:00–06:00
 * on chosen weekdays), durable (permanent: from its start to its end, any use, stored on the lock when it
 * wakes, never derived).
 */
export const PIN_TYPES = ['once', 'timePeriod', 'weekly', 'durable'] as const;
export type PinType = (typeof PIN_TYPES)[number];

/**
 * How the lock learns a PIN (spec §4 algorithms): `totp`, derived by the lock offline from its PIN secret
 * (docs/offline-pins.md; a durable PIN is still sent online); `lorawan`, custom: the server draws the code
 * and sends it to a LoRaWAN lock as a downlink, the lock stores it.
 */
export const PIN_ALGORITHMS = ['totp', 'lorawan'] as const;
export type PinAlgorithm = (typeof PIN_ALGORITHMS)[number];

/**
 * Where the PIN stands on the lock: `derived` (the lock computes it, nothing to send), `pending` (waits to be
 * sent when the lock wakes), `stored` (the lock confirmed it holds it).
 */
export const PIN_STORAGES = ['derived', 'pending', 'stored'] as const;
export type PinStorage = (typeof PIN_STORAGES)[number];

/** Use state (spec §4): usable, disabled (revoked or erased), or past its window, its use or its deadline. */
export const PIN_USE_STATES = ['enabled', 'disabled', 'expire'] as const;
export type PinUseState = (typeof PIN_USE_STATES)[number];

/** Hours a once and a time-period PIN are valid from their start hour (spec §9). */
export const PIN_VALID_HOURS = { once: 2, timePeriod: 4 } as const;
/** A weekly PIN covers at most this many weeks (Monday to Sunday). */
export const PIN_MAX_WEEKS = 7;
/** Working hours of the stations (Monday–Friday, station time): a time-period PIN lies outside them. */
export const WORKING_HOURS = { from: 8, to: 18 } as const;
/** A PIN is 9 digits; shown once to whoever generated it, masked after. */
export const PIN_MASK = '•••••••••';

const entityId = z.string({ error: 'v.required' }).min(1, { error: 'v.required' }).max(64);

/** Weekdays of a weekly PIN: 0 Monday … 6 Sunday. */
export const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;

/**
 * Generating a PIN (spec §5): the lock, the staff member it is for, its type, start and end (both required,
 * the start not later than the end), the weekdays of a weekly PIN, and why.
 */
export const pinForm = z
  .object({
    deviceId: entityId,
    userId: entityId,
    type: z.enum(PIN_TYPES),
    algorithm: z.enum(PIN_ALGORITHMS).default('totp'),
    startTime: requiredTime,
    endTime: requiredTime,
    weekdays: z
      .array(z.int().min(0).max(6))
      .max(7)
      .default([])
      .refine((days) => new Set(days).size === days.length, { error: 'v.duplicateItem' }),
    reason: z
      .string({ error: 'v.required' })
      .trim()
      .min(1, { error: 'v.required' })
      .max(200, { error: 'v.tooLong' }),
  })
  .superRefine((form, ctx) => {
    const given = [form.startTime, form.endTime].every(
      (t) => typeof t === 'string' && !Number.isNaN(Date.parse(t)),
    );
    if (given && Date.parse(form.startTime) > Date.parse(form.endTime)) {
      ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'v.pinStartAfterEnd' });
    }
    if (form.type === 'weekly' && form.weekdays.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['weekdays'], message: 'v.pinWeekdays' });
    }
  });
export type PinForm = z.infer<typeof pinForm>;
