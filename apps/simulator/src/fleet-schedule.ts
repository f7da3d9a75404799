/**
 * When a fleet's locks report: in behaviour mode each lock's model decides, on a shared tick; in load mode
 * the load scheduler spreads a fixed rate over the devices once all are connected. One timer for the whole
 * fleet either way.
 */
import { performance } from 'node:perf_hooks';
import { type DeviceRuntime, publishModelReports, publishReport } from './fleet-device.ts';
import { type FleetMode, LOAD_FAULT_BATTERY } from './fleet-options.ts';
import type { FleetRun } from './fleet-run.ts';
import { LOAD_TICK_MS, LoadScheduler, loadReportId } from './load-scheduler.ts';

const BEHAVIOUR_TICK_MS = 250;
const DEFAULT_MAX_IN_FLIGHT = 1000;

/** Starts the reports; returns what stops them. */
export function startReporting(runtimes: readonly DeviceRuntime[], run: FleetRun): () => void {
  const { mode } = run;
  return mode.kind === 'behaviour' ? startBehaviourTicks(runtimes, run) : startLoad(runtimes, run, mode);
}

function startBehaviourTicks(runtimes: readonly DeviceRuntime[], run: FleetRun): () => void {
  const { stats } = run;
  const tick = (): void => {
    const now = run.simNow();
    for (const runtime of runtimes) {
      const reports = runtime.model.tick(now);
      if (reports.length > 0) publishModelReports(runtime, reports, Date.now(), stats);
    }
  };
  tick();
  const timer = setInterval(tick, BEHAVIOUR_TICK_MS);
  return () => clearInterval(timer);
}

function startLoad(
  runtimes: readonly DeviceRuntime[],
  run: FleetRun,
  mode: Extract<FleetMode, { kind: 'load' }>,
): () => void {
  const { stats, runPrefix } = run;
  const maxInFlight = mode.maxInFlightPerDevice ?? DEFAULT_MAX_IN_FLIGHT;
  const faultEvery = mode.faultEvery && mode.faultEvery > 0 ? Math.floor(mode.faultEvery) : 0;
  const scheduler = new LoadScheduler(mode.rate, runtimes.length);
  let sendTime = 0;
  const sendDue = (deviceIndex: number): void => {
    stats.offered += 1;
    const runtime = runtimes[deviceIndex] as DeviceRuntime;
    if (runtime.inFlight >= maxInFlight) return;
    runtime.loadCount += 1;
    const report = runtime.loadReport;
    report.messageId = loadReportId(runPrefix, deviceIndex, runtime.loadCount);
    if (faultEvery)
      report.battery =
        (runtime.loadCount + deviceIndex) % faultEvery === 0 ? LOAD_FAULT_BATTERY : runtime.loadBattery;
    report.reportedAt = sendTime;
    publishReport(runtime, report, stats);
  };
  let timer: NodeJS.Timeout | null = null;
  // Offered load starts once every device is connected, so that the benchmark measures the server.
  run.readiness.ready.then(
    () => {
      if (run.stopped) return;
      const loadStart = performance.now();
      timer = setInterval(() => {
        sendTime = Date.now();
        scheduler.advance(performance.now() - loadStart, sendDue);
      }, LOAD_TICK_MS);
    },
    () => {},
  );
  return () => {
    if (timer !== null) clearInterval(timer);
  };
}
