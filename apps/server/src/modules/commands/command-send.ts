import { createHash } from 'node:crypto';
import type { DeviceCommand } from '@uiot/device-protocol';

export type CommandTransport = 'mqtt' | 'chirpstack' | 'tcp' | 'nbiot';

/** How a command left: its transport, and the id the device or network answers with (spec §3 receive id). */
export interface SentCommand {
  transport: CommandTransport;
  receiveId: string;
  /** The network's name for the device (an NB-IoT platform's device id), when it has one. */
  platformDeviceId?: string;
  /**
   * The network holds the command and delivers it when the device wakes (an NB-IoT platform queued it): it
   * is `NB_Pending` and is not sent again; the network's status callbacks carry it on.
   */
  held?: boolean;
}

/** How commands leave for their device: the iot module's sender, on the device bus, TcpDirect or NB-IoT. */
export interface CommandSend {
  send(deviceId: string, command: DeviceCommand): Promise<SentCommand>;
}

/**
 * The 16-bit sequence a command carries in the lock's binary payload, from its id: the same command sent
 * again keeps its sequence, and the lock's result (`seq:{n}`) names it.
 */
export function lockSequenceOf(commandId: string): number {
  return createHash('sha256').update(commandId).digest().readUInt16BE(0);
}
