/**
 * The life of a device command (spec §4 command states), as plain functions of the command and the clock.
 *
 * A command starts `Waitting` and is sent down. The lock's own answer ends it (`Success`, `Failure`). On the
 * way the network may tell how far it got: ChirpStack's txack (the gateway transmitted it) and ack (the lock
 * confirmed the downlink), an NB-IoT platform's status (NB_*). While nobody has confirmed that the command
 * reached the lock it is sent again every retransmit interval, `maxRetransmit` times at most; after the
 * last one has had its interval, the command ends `NB_Timeout`. Whatever its state, a command still open at
 * its expiry time ends `NB_Expired`. A final state never changes again.
 */
import { type CommandState, FINAL_COMMAND_STATES } from '@uiot/contracts';
import type { CommandOutcome } from '@uiot/device-protocol';

const FINAL = new Set<CommandState>(FINAL_COMMAND_STATES);

export function isFinal(state: CommandState): boolean {
  return FINAL.has(state);
}

/**
 * How far an open command got; a report of less progress than known (a late txack after the ack) does not
 * move it back. `NB_UnKnow` (a platform status nobody could map) says nothing new.
 */
const PROGRESS: Record<CommandState, number> = {
  Waitting: 0,
  NB_UnKnow: 0,
  NB_Pending: 1,
  NB_Send: 2,
  NB_Delivered: 3,
  Success: 9,
  Failure: 9,
  NB_Failed: 9,
  NB_Successful: 9,
  NB_Expired: 9,
  NB_Timeout: 9,
  NB_Canceled: 9,
};

/** The state an outcome reported by the lock or its network stands for. */
export function stateOfOutcome(outcome: CommandOutcome): CommandState {
  switch (outcome) {
    case 'Sent':
      return 'NB_Send';
    case 'Delivered':
      return 'NB_Delivered';
    default:
      return outcome;
  }
}

/** The state after the lock or its network reported `outcome`. */
export function afterOutcome(state: CommandState, outcome: CommandOutcome): CommandState {
  if (isFinal(state)) return state;
  const next = stateOfOutcome(outcome);
  if (isFinal(next)) return next;
  return PROGRESS[next] > PROGRESS[state] ? next : state;
}

/**
 * Still worth sending again: nobody has confirmed that the command reached the lock. Once the gateway sent
 * it or the platform holds it, the network delivers it; sending again would make a second command.
 */
export function mayRetransmit(state: CommandState): boolean {
  return state === 'Waitting' || state === 'NB_UnKnow';
}

/** What the scheduler keeps of a command. Times are ms since epoch. */
export interface CommandTiming {
  state: CommandState;
  /** Sends so far (the first included). */
  attempts: number;
  /** Sends after the first one allowed. */
  maxRetransmit: number;
  lastSentAt: number | null;
  expireAt: number;
}

export type CommandStep =
  | { do: 'nothing' }
  | { do: 'send'; retransmit: boolean }
  | { do: 'end'; state: 'NB_Expired' | 'NB_Timeout' }
  | { do: 'wait'; until: number };

/** What is due for a command at `now`, given how long a send may go unanswered before the next. */
export function nextStep(command: CommandTiming, now: number, retransmitIntervalMs: number): CommandStep {
  if (isFinal(command.state)) return { do: 'nothing' };
  if (now >= command.expireAt) return { do: 'end', state: 'NB_Expired' };
  if (command.attempts === 0 || command.lastSentAt === null) return { do: 'send', retransmit: false };
  if (!mayRetransmit(command.state)) return { do: 'wait', until: command.expireAt };
  const answerBy = command.lastSentAt + retransmitIntervalMs;
  if (now < answerBy) return { do: 'wait', until: Math.min(answerBy, command.expireAt) };
  if (command.attempts <= command.maxRetransmit) return { do: 'send', retransmit: true };
  return { do: 'end', state: 'NB_Timeout' };
}
