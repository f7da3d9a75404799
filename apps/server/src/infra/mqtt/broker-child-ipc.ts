/**
 * The broker child's side of its IPC with the server (see broker-ipc.ts): messages to the parent, and its
 * log lines, which go through the parent's logger.
 */
import type { BrokerToParentMessage } from './broker-ipc.ts';

export function send(message: BrokerToParentMessage, then?: () => void): void {
  if (!process.send || !process.connected) {
    then?.();
    return;
  }
  process.send(message, undefined, undefined, () => then?.());
}

/** Logs through the parent's logger, at most LOG_BUDGET lines a minute (a flood of bad clients must not
 * become a flood of IPC messages). */
const LOG_BUDGET = 60;
let logWindowStart = Date.now();
let logCount = 0;
let logSuppressed = 0;
export function log(level: 'info' | 'warn' | 'error', msg: string, data?: Record<string, unknown>): void {
  const now = Date.now();
  if (now - logWindowStart >= 60_000) {
    if (logSuppressed > 0) {
      send({ type: 'log', level: 'warn', msg: 'log lines suppressed', data: { suppressed: logSuppressed } });
    }
    logWindowStart = now;
    logCount = 0;
    logSuppressed = 0;
  }
  if (level !== 'error' && logCount >= LOG_BUDGET) {
    logSuppressed++;
    return;
  }
  logCount++;
  send({ type: 'log', level, msg, ...(data ? { data } : {}) });
}
