/**
 * Device commands (spec §3 Device command, §4 command states): what was sent to a lock and how far it got.
 */
import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { pageQuery, pageResult } from '../paging.ts';
import { Permission } from '../permissions.ts';
import { searchTime } from '../validation/formats.ts';

/** Spec §4, spelled as the spec spells them ('Waitting' included). */
export const COMMAND_STATES = [
  'Waitting',
  'Success',
  'Failure',
  'NB_Failed',
  'NB_Successful',
  'NB_Pending',
  'NB_Send',
  'NB_Delivered',
  'NB_Expired',
  'NB_Timeout',
  'NB_Canceled',
  'NB_UnKnow',
] as const;
export type CommandState = (typeof COMMAND_STATES)[number];

/** States a command never leaves: the device answered, the network gave up, or time ran out. */
export const FINAL_COMMAND_STATES: readonly CommandState[] = [
  'Success',
  'Failure',
  'NB_Failed',
  'NB_Successful',
  'NB_Expired',
  'NB_Timeout',
  'NB_Canceled',
];

/** How a command left for the device. */
export const COMMAND_TRANSPORTS = ['mqtt', 'chirpstack', 'tcp', 'nbiot'] as const;

/**
 * The names the server gives the commands it makes itself (remote operations, offline PINs, the lock
 * replacement, parameter send-down), by command code: stored with each command, and shown by the console in
 * the reader's language (a command type's own commands are named in the device type's configuration and
 * shown as named). A parameter command's stored name is this name, a space and the parameter
 * (`paramCommandName`).
 */
export const SYSTEM_COMMAND_NAMES = {
  open: 'open (remote)',
  close: 'close (remote)',
  setPin: 'setPin (offline PIN)',
  deletePin: 'deletePin (offline PIN)',
  setPassword: 'setPassword (lock replacement)',
  setParam: 'setParam',
} as const;
export type SystemCommand = keyof typeof SYSTEM_COMMAND_NAMES;

/** A system command as stored: its code and, for a parameter command, the parameter it sets. */
export interface SystemCommandName {
  code: SystemCommand;
  param: string | null;
}

/** The system command a stored command is, or null (one of a device type's own). */
export function systemCommandOf(command: { cmdCode: string; name: string }): SystemCommandName | null {
  const code = command.cmdCode as SystemCommand;
  if (!Object.hasOwn(SYSTEM_COMMAND_NAMES, code)) return null;
  if (code === 'setParam') {
    const prefix = `${SYSTEM_COMMAND_NAMES.setParam} `;
    const param = command.name.startsWith(prefix) ? command.name.slice(prefix.length) : '';
    return param.trim() ? { code, param } : null;
  }
  return SYSTEM_COMMAND_NAMES[code] === command.name ? { code, param: null } : null;
}

const text = z.string().nullable();

/** A remote control record (spec §3 Device command). */
export const deviceCommandRow = z.object({
  id: z.string(),
  deviceId: z.string(),
  deviceName: text,
  deviceCode: text,
  cmdCode: z.string(),
  name: z.string(),
  /** The parameters sent, as JSON text ('' when none). */
  params: z.string(),
  state: z.enum(COMMAND_STATES),
  sendFlag: z.boolean(),
  sendTime: text,
  attempts: z.number().int(),
  maxRetransmit: z.number().int(),
  expireTime: z.string(),
  transport: z.enum(COMMAND_TRANSPORTS).nullable(),
  receiveId: text,
  platformDeviceId: text,
  /** The lock's own words with its answer. */
  detail: text,
  /** Why the last send could not leave: a result code with its message parameters (translated by the reader). */
  failure: z
    .object({ code: z.number().int(), params: z.record(z.string(), z.union([z.string(), z.number()])) })
    .nullable(),
  staffName: text,
  createTime: z.string(),
  finishTime: text,
});
export type DeviceCommandRow = z.infer<typeof deviceCommandRow>;

/** Remote control record search: a time range over the creation time, the device, the state. */
export const deviceCommandSearch = z.object({
  deviceId: z.string().min(1).max(64).optional(),
  startTime: searchTime,
  endTime: searchTime,
  deviceName: z.string().trim().max(64).optional(),
  state: z.enum(COMMAND_STATES).optional(),
});

export const queryDeviceCommandPage = defineEndpoint({
  method: 'GET',
  path: '/deviceCommand/queryPage',
  features: ['SupportIoT', 'ShowCmd'],
  access: Permission.DeviceCommandRead,
  module: 'commands',
  summary: 'Remote control records, newest first, paged',
  query: pageQuery.extend(deviceCommandSearch.shape),
  response: pageResult(deviceCommandRow),
});

/** A parameter name as the device protocol accepts it: 1–64 of `A-Z a-z 0-9 _ . -`. */
const PARAM_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
/** A time of day, `HH:mm`. */
const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Minutes since midnight of an `HH:mm` time of day. */
export function minutesOfDay(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return (hours as number) * 60 + (minutes as number);
}

const paramName = z
  .string()
  .trim()
  .min(1, 'v.required')
  .regex(PARAM_NAME, 'v.paramName')
  .refine((name) => name !== '__proto__', 'v.paramName');

/**
 * Parameter send-down (device monitor "param config", spec §5): a value parameter has a name and a value;
 * a period parameter a name and a time-of-day range whose start is before its end.
 */
export const deviceParamForm = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('value'),
    deviceId: z.string().min(1).max(64),
    name: paramName,
    value: z.string().trim().min(1, 'v.required').max(256, 'v.tooLong'),
  }),
  z
    .object({
      kind: z.literal('period'),
      deviceId: z.string().min(1).max(64),
      name: paramName,
      start: z.string().regex(TIME_OF_DAY, 'v.timeOfDay'),
      end: z.string().regex(TIME_OF_DAY, 'v.timeOfDay'),
    })
    // A malformed time has its own message; the order is checked between two valid times only.
    .refine(
      (form) =>
        !TIME_OF_DAY.test(form.start) ||
        !TIME_OF_DAY.test(form.end) ||
        minutesOfDay(form.start) < minutesOfDay(form.end),
      {
        path: ['end'],
        message: 'v.endAfterStart',
      },
    ),
]);
export type DeviceParamForm = z.infer<typeof deviceParamForm>;

/**
 * The `setParam` parameters of a form: a numeric value goes as a number (the lock payload carries numbers
 * only), any other as text (which a LoRaWAN lock cannot take); a period as `{name}.start` and `{name}.end` in minutes since midnight.
 */
export function paramCommandParams(form: DeviceParamForm): Record<string, string | number> {
  if (form.kind === 'period') {
    return { [`${form.name}.start`]: minutesOfDay(form.start), [`${form.name}.end`]: minutesOfDay(form.end) };
  }
  // Only a number that reads back as written goes as a number: 16 digits and more would be rounded.
  const numeric = /^-?\d+(\.\d+)?$/.test(form.value) ? Number(form.value) : Number.NaN;
  const digits = form.value.replace(/^-/, '').replace('.', '').replace(/^0+/, '').length;
  const exact = Number.isFinite(numeric) && digits <= 15;
  return { [form.name]: exact ? numeric : form.value };
}

/** The name a parameter command is stored with: the system name and the parameter it sets. */
export function paramCommandName(form: DeviceParamForm): string {
  return `${SYSTEM_COMMAND_NAMES.setParam} ${form.name}`;
}

export const sendDeviceParam = defineEndpoint({
  method: 'POST',
  path: '/deviceCommand/sendParam',
  features: ['SupportIoT', 'ShowCmd'],
  access: Permission.DeviceCommandSend,
  module: 'commands',
  summary: 'Send a parameter down to a registered device (a setParam command)',
  operatesDevice: true,
  body: deviceParamForm,
  response: deviceCommandRow,
});
