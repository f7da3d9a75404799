import { createHash } from 'node:crypto';
import type { DeviceCommand } from '@uiot/device-protocol';

export type CommandTransport = 'mqtt' | 'chirpstack' | 'tcp';

/** How a command left: its transport, and the id the device or network answers with (spec §3 receive id). */
export interface SentCommand {
  transport: CommandTransport;
  receiveId: string;
}

/** How commands leave for their device: the iot module's sender, on the device bus or TcpDirect. */
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
