/**
 * `npm run simulate -- …`: a fleet against any broker / server, with a progress line every 5 s on stderr
 * and one line of JSON with the counters on stdout at the end. Secrets (device secrets, the ChirpStack
 * password, a password in the broker URL) are never printed.
 */
import { performance } from 'node:perf_hooks';
import { type CliOptions, parseCliArgs, USAGE } from './cli-args.ts';
import { startFleet } from './fleet.ts';
import { fleetOptionsProblem } from './fleet-check.ts';
import { generateDevices, readFleetFile } from './fleet-file.ts';
import type { FleetLogger, FleetOptions, FleetStats, SimulatedDevice } from './fleet-options.ts';

const PROGRESS_MS = 5000;
const EXIT_USAGE = 2;

const logger: FleetLogger = {
  info: (o, m) => console.error(`[simulate] ${m ?? ''} ${JSON.stringify(o)}`),
  warn: (o, m) => console.error(`[simulate] warning: ${m ?? ''} ${JSON.stringify(o)}`),
};

function usageError(message: string): never {
  console.error(`simulate: ${message}\nRun with --help for the options.`);
  process.exit(EXIT_USAGE);
}

async function loadDevices(options: CliOptions): Promise<SimulatedDevice[]> {
  if (options.fleetFile === undefined) {
    return generateDevices(options.devices ?? 0, {
      protocol: options.protocol,
      stationId: options.station,
      prefix: options.prefix,
    });
  }
  const read = await readFleetFile(options.fleetFile);
  if ('error' in read) usageError(read.error);
  return read.devices;
}

function fleetOptions(options: CliOptions, devices: SimulatedDevice[]): FleetOptions {
  const { applicationId, username, password } = options.chirpstack;
  return {
    devices,
    mqttUrl: options.url,
    ...(applicationId === undefined ? {} : { chirpstack: { applicationId, username, password } }),
    tcp: options.tcp,
    mode:
      options.rate === undefined
        ? {
            kind: 'behaviour',
            ...(options.heartbeatSeconds === undefined ? {} : { heartbeatSeconds: options.heartbeatSeconds }),
            ...(options.timeScale === undefined ? {} : { timeScale: options.timeScale }),
          }
        : { kind: 'load', rate: options.rate },
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.concurrency === undefined ? {} : { connectConcurrency: options.concurrency }),
    logger,
  };
}

function perSecond(count: number, seconds: number): number {
  return seconds > 0 ? Math.round((count / seconds) * 10) / 10 : 0;
}

async function main(): Promise<void> {
  const parsed = parseCliArgs(process.argv.slice(2), process.env);
  if (parsed.kind === 'help') {
    console.info(USAGE);
    return;
  }
  if (parsed.kind === 'error') usageError(parsed.message);
  const options = parsed.options;
  const devices = await loadDevices(options);
  const fleetConfig = fleetOptions(options, devices);
  const problem = fleetOptionsProblem(fleetConfig);
  if (problem !== undefined) usageError(problem.replace(/^chirpstack\b/, '--application-id (chirpstack)'));

  const fleet = startFleet(fleetConfig);
  const startedAt = performance.now();
  let measuredFrom = startedAt;
  let finishing = false;
  let last: FleetStats = { ...fleet.stats };
  let lastAt = startedAt;

  const progress = setInterval(() => {
    const now = performance.now();
    const seconds = (now - lastAt) / 1000;
    const stats = fleet.stats;
    console.error(
      `[simulate] ${((now - startedAt) / 1000).toFixed(0)} s: published ${perSecond(stats.published - last.published, seconds)}/s, ` +
        `acked ${perSecond(stats.acknowledged - last.acknowledged, seconds)}/s, ` +
        `connected ${stats.connected}/${stats.devices}, failed ${stats.failed}`,
    );
    last = { ...stats };
    lastAt = now;
  }, PROGRESS_MS);

  let durationTimer: NodeJS.Timeout | null = null;
  const finish = async (exitCode: number): Promise<void> => {
    if (finishing) return;
    finishing = true;
    clearInterval(progress);
    if (durationTimer !== null) clearTimeout(durationTimer);
    const endedAt = performance.now();
    const connectedAtEnd = fleet.stats.connected;
    await fleet.stop();
    const seconds = (endedAt - measuredFrom) / 1000;
    const stats = fleet.stats;
    const summary = {
      ...stats,
      connected: connectedAtEnd,
      mode: fleetConfig.mode.kind,
      seconds: Math.round(seconds * 1000) / 1000,
      offeredPerSecond: perSecond(stats.offered, seconds),
      publishedPerSecond: perSecond(stats.published, seconds),
      acknowledgedPerSecond: perSecond(stats.acknowledged, seconds),
      runPrefix: fleet.runPrefix,
    };
    process.stdout.write(`${JSON.stringify(summary)}\n`, () => process.exit(exitCode));
  };

  let interrupts = 0;
  const onSignal = (): void => {
    interrupts += 1;
    // A second Ctrl-C does not wait for the drain.
    if (interrupts > 1) process.exit(130);
    void finish(0);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    await fleet.ready;
  } catch (error) {
    if (finishing) return;
    console.error(`simulate: ${(error as Error).message}`);
    clearInterval(progress);
    finishing = true;
    await fleet.stop({ drainMs: 0 });
    process.exit(1);
  }
  console.error(
    `[simulate] ${devices.length} devices connected in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`,
  );
  // Rates count from the moment every device is up: that is when load mode starts offering.
  measuredFrom = performance.now();
  if (options.durationSeconds !== undefined) {
    durationTimer = setTimeout(() => void finish(0), options.durationSeconds * 1000);
  }
}

main().catch((error: unknown) => {
  console.error(`simulate: ${(error as Error).message}`);
  process.exit(1);
});
