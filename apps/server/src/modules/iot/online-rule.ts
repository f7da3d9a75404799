/**
 * Online / offline (spec §3 Runtime data): a device is online while its messages keep coming. It goes
 * offline when nothing arrived for longer than twice the heartbeat interval of its device type (one lost
 * heartbeat is tolerated), and never sooner than a minute after its last message. How long it has been
 * offline is counted by `offlineSeconds` in the contracts, the same for the server and the console.
 */

/** Least silence, in seconds, before any device counts as offline. */
export const MIN_OFFLINE_AFTER_SECONDS = 60;

/** Seconds of silence after which a device of a type with this heartbeat interval is offline. */
export function offlineAfterSeconds(heartbeatIntervalSeconds: number): number {
  const heartbeat =
    Number.isFinite(heartbeatIntervalSeconds) && heartbeatIntervalSeconds > 0 ? heartbeatIntervalSeconds : 0;
  return Math.max(2 * heartbeat, MIN_OFFLINE_AFTER_SECONDS);
}

/** The time before which a last message means offline now. */
export function offlineCutoff(heartbeatIntervalSeconds: number, now: Date): Date {
  return new Date(now.getTime() - offlineAfterSeconds(heartbeatIntervalSeconds) * 1000);
}

/** Whether a device whose last message came at `lastCollectTime` is online at `now`. */
export function isOnline(lastCollectTime: Date | null, heartbeatIntervalSeconds: number, now: Date): boolean {
  if (!lastCollectTime) return false;
  return lastCollectTime.getTime() > offlineCutoff(heartbeatIntervalSeconds, now).getTime();
}
