/**
 * The fleet's side of one device as its link sees it (`DeviceSession`): connection state into the
 * counters and the readiness, commands into the lock model, connection failures into a throttled log.
 */
import type { DeviceCommand } from '@uiot/device-protocol';
import type { DeviceSession } from './device-link.ts';
import type { DeviceRuntime } from './fleet-device.ts';
import type { FleetRun } from './fleet-run.ts';
import type { ResultToSend } from './lock-model.ts';

/** At most one connection warning per this interval, so a broker outage does not flood the log. */
const CONNECT_WARN_INTERVAL_MS = 5000;

/** Connection warnings of a whole fleet: one per interval, saying how many were left out since the last. */
export class ConnectWarnings {
  private lastWarnAt = 0;
  private skipped = 0;

  constructor(private readonly run: FleetRun) {}

  warn(runtime: DeviceRuntime, error: Error, where: string): void {
    const now = Date.now();
    if (this.run.stopped) return;
    if (now - this.lastWarnAt < CONNECT_WARN_INTERVAL_MS) {
      this.skipped += 1;
      return;
    }
    const { code, protocol } = runtime.device;
    this.run.logger.warn(
      { device: code, protocol, where, error: error.message, alsoFailedSinceLastWarning: this.skipped },
      'a simulated device lost or could not open its connection; retrying',
    );
    this.lastWarnAt = now;
    this.skipped = 0;
  }
}

export function deviceSession(
  runtime: DeviceRuntime,
  run: FleetRun,
  warnings: ConnectWarnings,
): DeviceSession {
  const { stats, logger } = run;
  return {
    index: runtime.index,
    device: runtime.device,
    up: () => {
      if (!runtime.up) {
        runtime.up = true;
        stats.connected += 1;
      }
      if (!runtime.everUp) {
        runtime.everUp = true;
        if (run.readiness.firstUp() && !run.stopped) {
          logger.info({ devices: stats.devices }, 'every simulated device connected');
          run.readiness.settle();
        }
      }
    },
    down: () => {
      if (!runtime.up) return;
      runtime.up = false;
      stats.connected -= 1;
    },
    connectFailed: (error: Error, where: string) => {
      const { code, protocol } = runtime.device;
      if (!runtime.everUp && !run.stopped) {
        run.readiness.settle(
          new Error(`device ${code} (${protocol}) could not connect to ${where}: ${error.message}`),
        );
      }
      warnings.warn(runtime, error, where);
    },
    command: (command: DeviceCommand): ResultToSend | null => {
      stats.commandsReceived += 1;
      const now = run.simNow();
      const answer = runtime.model.handleCommand(command, now, Date.now());
      // The state report a command causes goes out with the next behaviour tick; load runs send only
      // their counted heartbeats.
      if (run.mode.kind === 'load') runtime.model.tick(now);
      // Parameters are not logged: a setPassword command carries a PIN.
      logger.info(
        { device: runtime.device.code, cmd: command.cmd, outcome: answer?.outcome ?? 'ignored' },
        'simulated lock received a command',
      );
      return answer;
    },
    resultSent: () => {
      stats.resultsSent += 1;
    },
    warn: (detail: object, message: string) => {
      logger.warn({ device: runtime.device.code, ...detail }, message);
    },
  };
}
