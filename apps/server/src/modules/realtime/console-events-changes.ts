/**
 * What the live channels carry of a change, as plain functions: the fields the console shows, never props,
 * raw payloads, command parameters (they may hold a PIN) or the lock's own words.
 */
import type { CommandChange, CommandState, RuntimeChange, UserNotification } from '@uiot/contracts';
import type { DeviceCommandRecord } from '../commands/commands.schema.ts';
import type { CommittedRuntime, RunStateChange, WentOffline } from '../iot/index.ts';

export function runtimeChangeOf(update: CommittedRuntime): RuntimeChange {
  // Built field by field: this runs for every changed device of every ingest batch.
  const change: RuntimeChange = {
    deviceId: update.deviceId,
    messageId: update.lastMessageId,
    online: true,
    lastCollectTime: new Date(update.lastCollectTime).toISOString(),
  };
  if (update.reportedAt !== undefined) change.reportTime = new Date(update.reportedAt).toISOString();
  if (update.lockState !== undefined) change.lockState = update.lockState;
  if (update.doorState !== undefined) change.doorState = update.doorState;
  if (update.battery !== undefined) change.battery = update.battery;
  if (update.rssi !== undefined) change.rssi = update.rssi;
  if (update.runState !== undefined) change.runState = update.runState;
  return change;
}

export function offlineChangeOf(device: WentOffline): RuntimeChange {
  return {
    deviceId: device.deviceId,
    messageId: null,
    online: false,
    lastCollectTime: device.lastCollectTime ? device.lastCollectTime.toISOString() : null,
    offlineSince: device.offlineSince ? device.offlineSince.toISOString() : null,
  };
}

/** A run state the server worked out with no report (a door open too long, levels changed). */
export function runStateChangeOf(change: RunStateChange): RuntimeChange {
  return { deviceId: change.deviceId, messageId: null, runState: change.runState ?? 'normal' };
}

export function commandChangeOf(command: DeviceCommandRecord): CommandChange {
  return {
    id: command.id,
    deviceId: command.deviceId,
    cmdCode: command.cmdCode,
    name: command.name,
    state: command.state as CommandState,
    attempts: command.attempts,
    sendFlag: command.sendFlag,
    updateTime: command.updatedAt.toISOString(),
  };
}

/** The notification its issuer gets when a command reached its final state. */
export function commandFinishedNotificationOf(
  command: DeviceCommandRecord,
  deviceName: string | null,
): UserNotification {
  return {
    kind: 'commandFinished',
    commandId: command.id,
    deviceId: command.deviceId,
    deviceName,
    name: command.name,
    state: command.state as CommandState,
    failure:
      command.failureCode === null
        ? null
        : { code: command.failureCode, params: command.failureParams ?? {} },
  };
}

/** Groups items by the station a function assigns (skipping those it assigns none), keeping their order. */
export function byStation<T, R>(
  items: readonly T[],
  stationOf: (item: T) => string | null | undefined,
  map: (item: T) => R,
): Map<string, R[]> {
  const groups = new Map<string, R[]>();
  for (const item of items) {
    const station = stationOf(item);
    if (!station) continue;
    let group = groups.get(station);
    if (!group) {
      group = [];
      groups.set(station, group);
    }
    group.push(map(item));
  }
  return groups;
}
