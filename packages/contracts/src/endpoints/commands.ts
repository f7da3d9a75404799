/**
 * Device commands (spec §3 Device command, §4 command states): what was sent to a lock and how far it got.
 */

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
