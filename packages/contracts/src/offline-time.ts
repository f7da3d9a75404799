/**
 * "Offline for" (spec §3 Runtime data), one rule for the server's runtime list and the console's live
 * monitor: whole seconds since the device went offline, which is when the offline sweep found its
 * allowance run out (its last message plus twice its type's heartbeat, `offlineSince`), or its last message
 * while the sweep has not stamped it yet. Null while online or before the first message; never negative.
 * Times are `Date`s on the server and ISO text in the console.
 */
export function offlineSeconds(
  online: boolean,
  offlineSince: Date | string | null,
  lastCollectTime: Date | string | null,
  now: Date,
): number | null {
  if (online) return null;
  const since = timeOf(offlineSince) ?? timeOf(lastCollectTime);
  if (since === null) return null;
  return Math.max(0, Math.floor((now.getTime() - since) / 1000));
}

function timeOf(time: Date | string | null): number | null {
  if (time === null) return null;
  const ms = typeof time === 'string' ? Date.parse(time) : time.getTime();
  return Number.isNaN(ms) ? null : ms;
}
