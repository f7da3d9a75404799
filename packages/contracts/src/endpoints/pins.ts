import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { pageQuery, pageResult } from '../paging.ts';
import { Permission } from '../permissions.ts';
import { PIN_ALGORITHMS, PIN_STORAGES, PIN_TYPES, PIN_USE_STATES, pinForm } from '../validation/pin-forms.ts';

const id = z.string().min(1).max(64);

/**
 * A PIN (spec §3): masked code, generation time, window, use state, type, generator, user, usage time, and
 * the task or fixed authorisation the "who may open" decision allowed it under.
 */
export const pinRow = z.object({
  id: z.string(),
  stationId: z.string(),
  deviceId: z.string(),
  deviceName: z.string(),
  type: z.enum(PIN_TYPES),
  algorithm: z.enum(PIN_ALGORITHMS),
  /** Derived by the lock, or waiting to be sent to it, or stored on it. */
  storage: z.enum(PIN_STORAGES),
  /**
   * Always masked: the code is shown once, to whoever generated it (a durable PIN's when its lock has woken
   * and the code was drawn: `abilities.showCode`).
   */
  code: z.string(),
  createTime: z.string(),
  /** The window the lock accepts (whole hours; a weekly PIN's first and last windows). */
  startTime: z.string(),
  endTime: z.string(),
  /** A weekly PIN's weekdays (0 Monday … 6 Sunday); empty for the others. */
  weekdays: z.array(z.number()),
  /** Unused by then, the PIN expires (docs/offline-pins.md, activation deadline). */
  activationDeadline: z.string(),
  useState: z.enum(PIN_USE_STATES),
  /** Revoked or erased, and the lock has not confirmed it yet. */
  pendingDeletion: z.boolean(),
  generatorName: z.string().nullable(),
  userId: z.string(),
  userName: z.string().nullable(),
  reason: z.string(),
  taskName: z.string().nullable(),
  byAuthorization: z.boolean(),
  /** First and last use the lock reported. */
  usageTime: z.string().nullable(),
  lastUsedTime: z.string().nullable(),
  useCount: z.number(),
  revokedAt: z.string().nullable(),
  revokedByName: z.string().nullable(),
  abilities: z.object({
    revoke: z.boolean(),
    /** The reader generated this durable PIN, its lock has woken and its code was drawn, not yet shown. */
    showCode: z.boolean(),
  }),
});
export type PinRow = z.infer<typeof pinRow>;

export const pinSearch = z.object({
  deviceId: z.string().max(64).optional(),
  type: z.enum(PIN_TYPES).optional(),
  useState: z.enum(PIN_USE_STATES).optional(),
  /** Part of the user's name. */
  keyword: z.string().trim().max(64).optional(),
});
export type PinSearch = z.infer<typeof pinSearch>;

export const queryPinPage = defineEndpoint({
  method: 'GET',
  path: '/pin/queryPage',
  access: Permission.PinRead,
  module: 'pins',
  summary: "The station's offline PINs, newest first, searchable by lock, type, use state and user",
  query: pageQuery.extend(pinSearch.shape),
  response: pageResult(pinRow),
});

export const generatePin = defineEndpoint({
  method: 'POST',
  path: '/pin/generate',
  access: Permission.PinGenerate,
  module: 'pins',
  summary:
    'Generate an offline PIN for a staff member the "who may open" decision allows; the code is answered once (a durable PIN\'s is drawn when its lock wakes: null here, see showCode)',
  body: pinForm,
  response: z.object({ pin: pinRow, code: z.string().nullable() }),
});

export const showPinCode = defineEndpoint({
  method: 'GET',
  path: '/pin/showCode',
  access: Permission.PinGenerate,
  module: 'pins',
  summary:
    "A durable PIN's code, drawn when its lock woke: answered once, to whoever generated the PIN, then only masked",
  query: z.object({ id }),
  response: z.object({ pin: pinRow, code: z.string() }),
  mutating: true,
});

export const revokePin = defineEndpoint({
  method: 'GET',
  path: '/pin/revoke',
  access: Permission.PinRevoke,
  module: 'pins',
  summary: 'Disable a PIN: the lock is told when it wakes; pending deletion until it confirms',
  query: z.object({ id }),
  response: pinRow,
  mutating: true,
});

export const generateEraseCode = defineEndpoint({
  method: 'GET',
  path: '/pin/eraseCode',
  access: Permission.PinRevoke,
  module: 'pins',
  summary:
    'An erase code for a lock: entered on its keypad, it makes the lock forget every PIN; answered once',
  query: z.object({ deviceId: id }),
  response: z.object({ code: z.string(), validUntil: z.string(), disabled: z.number() }),
  mutating: true,
});
