import type { AlarmBoardRow, AlarmChange } from '@uiot/contracts';

/**
 * The board's open alarms after alarm changes of its station's topic: an open alarm (Warn) is added or
 * updated, a closed one (Normal, Reset) leaves; newest first, as the server lists them.
 */
export function applyAlarmChanges(
  rows: readonly AlarmBoardRow[],
  changes: readonly AlarmChange[],
): AlarmBoardRow[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const change of changes) {
    if (change.state !== 'Warn') {
      byId.delete(change.id);
      continue;
    }
    byId.set(change.id, {
      id: change.id,
      deviceId: change.deviceId,
      deviceName: change.deviceName,
      content: change.content,
      severity: change.severity,
      warnTime: change.warnTime,
      ackTime: change.ackTime,
    });
  }
  return [...byId.values()].sort(
    (a, b) => Date.parse(b.warnTime) - Date.parse(a.warnTime) || b.id.localeCompare(a.id),
  );
}

/** How long an alarm has been open, in whole minutes, hours and days: `{ days, hours, minutes }`. */
export function openFor(warnTime: string, now: number): { days: number; hours: number; minutes: number } {
  const minutes = Math.max(0, Math.floor((now - Date.parse(warnTime)) / 60_000));
  return {
    days: Math.floor(minutes / 1440),
    hours: Math.floor((minutes % 1440) / 60),
    minutes: minutes % 60,
  };
}

/**
 * Takes the one-time code out of the board's address, so that neither a reload nor the history keeps it.
 * Links carry it in the fragment (`#code=…`, never sent to the server); one in the query (`?code=…`, links
 * issued before) is taken as well.
 */
export function takeBoardCode(location: { href: string }, replace: (url: string) => void): string | null {
  const url = new URL(location.href);
  const fragment = new URLSearchParams(url.hash.slice(1));
  const inFragment = fragment.get('code');
  const code = inFragment ?? url.searchParams.get('code');
  if (code === null) return null;
  let hash = url.hash;
  if (inFragment !== null) {
    fragment.delete('code');
    hash = fragment.size > 0 ? `#${fragment}` : '';
  }
  url.searchParams.delete('code');
  replace(url.pathname + url.search + hash);
  return code || null;
}
