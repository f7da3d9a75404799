import { type CommandChange, type DeviceCommandRow, FINAL_COMMAND_STATES, type Page } from '@uiot/contracts';

/**
 * Live remote commands (spec §4 Realtime, command states): what a published `CommandChange` does to a
 * cached page of a device's commands. Pure: the page applies the answer to its query cache.
 */

/** A command page query as the table sent it: `deviceId`, the search, sort and paging. */
export type CommandQuery = Readonly<Record<string, unknown>>;

/** A command row after a change: its new state and sends; the first send and the end take the change's time. */
export function applyCommandChange(row: DeviceCommandRow, change: CommandChange): DeviceCommandRow {
  const ended = FINAL_COMMAND_STATES.includes(change.state);
  return {
    ...row,
    state: change.state,
    attempts: change.attempts,
    sendFlag: change.sendFlag,
    sendTime: row.sendTime ?? (change.sendFlag ? change.updateTime : null),
    finishTime: row.finishTime ?? (ended ? change.updateTime : null),
  };
}

export interface CommandPageMerge {
  /** The page with the changes applied; null when no row of it changed. */
  page: Page<DeviceCommandRow> | null;
  /**
   * The page should be asked for again: a new command of its device (newest first: it goes on top), a row
   * that left a state search, or a command that ended (its answer and failure come with the row only).
   */
  refetch: boolean;
}

/** Applies command changes, in order, to a cached page of commands. */
export function mergeCommandPage(
  page: Page<DeviceCommandRow>,
  query: CommandQuery,
  changes: readonly CommandChange[],
): CommandPageMerge {
  const position = new Map(page.rows.map((row, index) => [row.id, index]));
  const deviceId = query.deviceId === undefined ? undefined : String(query.deviceId);
  const state = query.state === undefined || query.state === '' ? undefined : String(query.state);
  let rows: DeviceCommandRow[] | null = null;
  let refetch = false;
  for (const change of changes) {
    const index = position.get(change.id);
    if (index === undefined) {
      refetch ||= deviceId === change.deviceId && (state === undefined || state === change.state);
      continue;
    }
    rows ??= [...page.rows];
    const before = rows[index] as DeviceCommandRow;
    const after = applyCommandChange(before, change);
    rows[index] = after;
    const ended = !FINAL_COMMAND_STATES.includes(before.state) && FINAL_COMMAND_STATES.includes(after.state);
    refetch ||= ended || (state !== undefined && after.state !== state);
  }
  return { page: rows ? { ...page, rows } : null, refetch };
}
