/**
 * Device commands (spec §3 Device command, §4 command states): what was sent to a lock and how far it got.
 */
import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { pageQuery, pageResult } from '../paging.ts';
import { Permission } from '../permissions.ts';

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
export const COMMAND_TRANSPORTS = ['mqtt', 'chirpstack', 'tcp'] as const;

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
  startTime: z.string().max(40).optional(),
  endTime: z.string().max(40).optional(),
  deviceName: z.string().trim().max(64).optional(),
  state: z.enum(COMMAND_STATES).optional(),
});

export const queryDeviceCommandPage = defineEndpoint({
  method: 'GET',
  path: '/deviceCommand/queryPage',
  access: Permission.DeviceCommandRead,
  module: 'commands',
  summary: 'Remote control records, newest first, paged',
  query: pageQuery.extend(deviceCommandSearch.shape),
  response: pageResult(deviceCommandRow),
});
