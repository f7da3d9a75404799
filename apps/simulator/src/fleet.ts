/**
 * A fleet of simulated locks on real connections. One timer drives the whole fleet (behaviour ticks, or the
 * load scheduler), never one per device, so that 1 000 devices cost little CPU beyond the network clients.
 *
 * The parts: `fleet-device` (one lock and its counters), `fleet-session` (what a link reports back),
 * `fleet-connections` (links per protocol, opened in waves), `fleet-schedule` (when reports go out) and
 * `fleet-run` (what they share).
 */
import { randomBytes } from 'node:crypto';
import { fleetOptionsProblem } from './fleet-check.ts';
import { linkDevices, openInWaves } from './fleet-connections.ts';
import { createDeviceRuntime, type DeviceRuntime, publishModelReports } from './fleet-device.ts';
import type { Fleet, FleetLogger, FleetOptions, FleetStats } from './fleet-options.ts';
import { FleetReadiness, type FleetRun } from './fleet-run.ts';
import { startReporting } from './fleet-schedule.ts';
import { ConnectWarnings, deviceSession } from './fleet-session.ts';
import type { ExpectedIds } from './load-scheduler.ts';
import type { LockBehaviour, PinEntryOutcome } from './lock-model.ts';

const DEFAULT_DRAIN_MS = 2000;

const SILENT: FleetLogger = { info: () => {}, warn: () => {} };

/** A fresh prefix for every start, so that ids never repeat across runs (8 hex digits). */
function newRunPrefix(): string {
  return randomBytes(4).toString('hex');
}

export function startFleet(options: FleetOptions): Fleet {
  const problem = fleetOptionsProblem(options);
  if (problem !== undefined) throw new TypeError(`simulator: ${problem}`);
  const { devices, mode } = options;
  const startAt = Date.now();
  const timeScale = mode.kind === 'behaviour' ? (mode.timeScale ?? 1) : 1;
  const stats: FleetStats = {
    devices: devices.length,
    connected: 0,
    offered: 0,
    published: 0,
    acknowledged: 0,
    failed: 0,
    commandsReceived: 0,
    resultsSent: 0,
  };
  const run: FleetRun = {
    mode,
    logger: options.logger ?? SILENT,
    stats,
    runPrefix: newRunPrefix(),
    readiness: new FleetReadiness(devices.length),
    simNow: () => startAt + (Date.now() - startAt) * timeScale,
    stopped: false,
  };
  const { logger, runPrefix, readiness } = run;

  const behaviour: Partial<LockBehaviour> | undefined =
    mode.kind === 'behaviour'
      ? {
          ...mode.behaviour,
          ...(mode.heartbeatSeconds === undefined ? {} : { heartbeatSeconds: mode.heartbeatSeconds }),
        }
      : undefined;
  const lockSetup = {
    runPrefix,
    seed: options.seed ?? randomBytes(4).readUInt32BE(0),
    startAt,
    behaviour,
    stats,
  };
  const runtimes = devices.map((device, index) => createDeviceRuntime(device, index, lockSetup));
  // null: a code two stations share, which `enterPin` cannot tell apart.
  const byCode = new Map<string, DeviceRuntime | null>();
  for (const runtime of runtimes) {
    const { code } = runtime.device;
    byCode.set(code, byCode.has(code) ? null : runtime);
  }

  const warnings = new ConnectWarnings(run);
  const { connections, loraDevices } = linkDevices(
    runtimes,
    (runtime) => deviceSession(runtime, run, warnings),
    options,
    runPrefix,
  );
  logger.info(
    {
      devices: devices.length,
      mode: mode.kind,
      mqtt: devices.filter((d) => d.protocol === 'mqtt').length,
      chirpstack: loraDevices,
      tcp: devices.filter((d) => d.protocol === 'tcp').length,
    },
    'starting a simulated fleet',
  );

  if (devices.length === 0) readiness.settle();
  const opened = openInWaves(connections, run, options.connectConcurrency);
  const stopReporting = startReporting(runtimes, run);

  let stopping: Promise<void> | null = null;
  const stop = (stopOptions?: { drainMs?: number }): Promise<void> => {
    stopping ??= (async () => {
      run.stopped = true;
      stopReporting();
      readiness.settle(new Error('the simulated fleet was stopped before every device connected'));
      const deadline = Date.now() + (stopOptions?.drainMs ?? DEFAULT_DRAIN_MS);
      while (stats.published - stats.acknowledged - stats.failed > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await Promise.all(opened.map((connection) => connection.close()));
      logger.info({ ...stats }, 'simulated fleet stopped');
    })();
    return stopping;
  };

  const enterPin = (code: string, pin: string, at: number = Date.now()): PinEntryOutcome => {
    const runtime = byCode.get(code);
    if (runtime === undefined) throw new RangeError(`simulator: no device ${code} in this fleet`);
    if (runtime === null) throw new RangeError(`simulator: more than one device with code ${code}`);
    const outcome = runtime.model.enterPin(pin, at);
    // Sent now rather than with the next behaviour tick, so that a caller can wait for it right away; a
    // load run drops them as it drops a command's reports.
    const reports = runtime.model.tick(at);
    if (mode.kind === 'behaviour' && !run.stopped) publishModelReports(runtime, reports, at, stats);
    // Never the code: it opens the lock.
    logger.info(
      {
        device: code,
        outcome: outcome.outcome,
        ...(outcome.outcome === 'refused' ? { reason: outcome.reason } : {}),
      },
      'a PIN was entered on a simulated lock',
    );
    return outcome;
  };

  return {
    stats,
    ready: readiness.ready,
    stop,
    enterPin,
    runPrefix,
    expectedIds: (): ExpectedIds => {
      const perDevice = runtimes.map((runtime) => runtime.loadCount);
      return { runPrefix, perDevice, total: perDevice.reduce((sum, n) => sum + n, 0) };
    },
  };
}
