import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { Permission } from '../permissions.ts';
import { deviceCredential } from './iot.ts';

const id = z.string().min(1).max(64);

/**
 * One-click lock replacement (spec §4): the steps after "not executed", run in this order. Replace: the
 * replacement takes the old lock's place in the ledger. InformationTo: lock codes, correction values and
 * attached devices move to it. ReRegister: the replacement is registered and receives its broker / TcpDirect
 * credential, as registering it in the ledger does. CancelRegistration: the old lock's registration is
 * cancelled and its credential withdrawn (it is disconnected at once). SendOldPassword: the old lock's permanent password is fetched and sent down
 * to the replacement (a `setPassword` device command); the step is done once the replacement confirms it.
 */
export const REPLACEMENT_STEPS = [
  'Replace',
  'InformationTo',
  'ReRegister',
  'CancelRegistration',
  'SendOldPassword',
] as const;
export type ReplacementStep = (typeof REPLACEMENT_STEPS)[number];

/**
 * A step's state: not executed yet, done, failed (may be retried), or pending: waiting for the device
 * (its command has not been answered yet; proceeding asks again).
 */
export const STEP_STATES = ['NotExecuted', 'Done', 'Failed', 'Pending'] as const;
export type StepState = (typeof STEP_STATES)[number];

/** The procedure: running (a step may be run), failed, pending on a device, or completed. */
export const REPLACEMENT_STATUSES = ['NotExecuted', 'Running', 'Failed', 'Pending', 'Completed'] as const;
export type ReplacementStatus = (typeof REPLACEMENT_STATUSES)[number];

/**
 * Reasons a step gives that are not result codes (the console translates them). All are the
 * SendOldPassword step's; `state` is the state of the `setPassword` command it sent:
 * - `noOldPassword`: the old lock has no permanent password to send to the replacement;
 * - `sendingPassword`: the command is being issued;
 * - `awaitingLockAnswer` (`command`, `state`): the command is on its way; the replacement has not answered;
 * - `passwordNotTaken` (`command`, `state`): the command ended without the replacement taking the password
 *   (refused, timed out, expired, or it could not be sent); proceeding sends a new one.
 */
export const REPLACEMENT_OWN_REASONS = [
  'noOldPassword',
  'sendingPassword',
  'awaitingLockAnswer',
  'passwordNotTaken',
] as const;
export type ReplacementOwnReason = (typeof REPLACEMENT_OWN_REASONS)[number];

export const replacementStepRow = z.object({
  step: z.enum(REPLACEMENT_STEPS),
  state: z.enum(STEP_STATES),
  /**
   * Why a step failed or waits: a result-code name or one of REPLACEMENT_OWN_REASONS, with its parameters,
   * translated by the console.
   */
  reason: z.string().nullable(),
  reasonParams: z.record(z.string(), z.string()).nullable(),
  time: z.string().nullable(),
  /**
   * The device command the step sent (SendOldPassword: the `setPassword` command to the replacement), so
   * proceeding can follow it; null for the other steps and before it is sent. Older stored steps lack it.
   */
  commandId: z.string().nullable().default(null),
});
export type ReplacementStepRow = z.infer<typeof replacementStepRow>;

export const replacementRow = z.object({
  id: z.string(),
  deviceId: z.string(),
  deviceName: z.string(),
  replacementId: z.string(),
  replacementName: z.string(),
  /** The replacement's code: its broker / TcpDirect username once registered; null for one without. */
  replacementCode: z.string().nullable(),
  status: z.enum(REPLACEMENT_STATUSES),
  steps: z.array(replacementStepRow),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ReplacementRow = z.infer<typeof replacementRow>;

/**
 * What proceeding answers: the procedure, and the replacement's credential when this call's ReRegister
 * issued one (a replacement without a code gets none). It is shown this once: the procedure never stores
 * it, and a procedure resumed later does not carry it (the ledger's reset secret issues a new one).
 */
export const proceededReplacement = replacementRow.extend({ credential: deviceCredential.nullable() });
export type ProceededReplacement = z.infer<typeof proceededReplacement>;

export const startReplacement = defineEndpoint({
  method: 'POST',
  path: '/lockReplacement/start',
  operatesDevice: true,
  access: Permission.DeviceReplaceLock,
  module: 'devices',
  summary: 'Start a one-click lock replacement of a registered device by an unregistered one',
  body: z.object({ deviceId: id, replacementId: id }),
  response: replacementRow,
});

export const proceedReplacement = defineEndpoint({
  method: 'POST',
  path: '/lockReplacement/proceed',
  operatesDevice: true,
  access: Permission.DeviceReplaceLock,
  module: 'devices',
  summary: 'Run the next steps of a lock replacement (retrying a failed or pending step)',
  body: z.object({ id }),
  response: proceededReplacement,
});

export const getReplacement = defineEndpoint({
  method: 'GET',
  path: '/lockReplacement/getByDevice',
  access: Permission.DeviceRead,
  module: 'devices',
  summary: 'The latest lock replacement of a device (as the old lock or the replacement), or null',
  query: z.object({ deviceId: id }),
  response: replacementRow.nullable(),
});
