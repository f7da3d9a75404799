import type { AlarmSeverity, AlarmState, DeviceAlarmRow } from '@uiot/contracts';

/** Spec §4 alarm states at a glance: open is red, cleared by itself green, reset by staff grey. */
export const STATE_COLOURS: Record<AlarmState, string> = {
  Warn: 'red',
  Normal: 'green',
  Reset: 'default',
};

/** Severities from the most to the least urgent. */
export const SEVERITY_COLOURS: Record<AlarmSeverity, string> = {
  critical: 'magenta',
  major: 'volcano',
  minor: 'gold',
  warning: 'blue',
};

/**
 * What staff may still do with an alarm (docs/alarms.md): acknowledge an open one not yet acknowledged;
 * reset an open one where the server says it can be reset. A closed alarm offers neither.
 */
export function alarmActions(row: Pick<DeviceAlarmRow, 'state' | 'canReset' | 'ackTime'>): {
  acknowledge: boolean;
  reset: boolean;
} {
  const open = row.state === 'Warn';
  return { acknowledge: open && row.ackTime === null, reset: open && row.canReset };
}
