/**
 * A fleet of simulated locks on real connections. One timer drives the whole fleet (behaviour ticks, or the
 * load scheduler), never one per device, so that 1 000 devices cost little CPU beyond the network clients.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { DeviceCommand } from '@uiot/device-protocol';
import { ChirpstackIntegration } from './chirpstack-link.ts';
import type { Connection, DeviceLink, DeviceSession, SendCallback } from './device-link.ts';
import { fleetOptionsProblem } from './fleet-check.ts';
import type { Fleet, FleetLogger, FleetOptions, FleetStats, SimulatedDevice } from './fleet-options.ts';
import { type ExpectedIds, LOAD_TICK_MS, LoadScheduler, loadReportId } from './load-scheduler.ts';
import { type LockBehaviour, LockModel, type ReportToSend, type ResultToSend } from './lock-model.ts';
import { NativeMqttLink } from './native-mqtt-link.ts';
import { createRandom, deriveSeed } from './random.ts';
import { TcpDirectLink } from './tcp-direct-link.ts';

const DEFAULT_CONNECT_CONCURRENCY = 100;
const BEHAVIOUR_TICK_MS = 250;
const DEFAULT_MAX_IN_FLIGHT = 1000;
const DEFAULT_DRAIN_MS = 2000;
/** ChirpStack asks a device for its battery level now and then (DevStatusReq); here every 12th uplink. */
const CHIRPSTACK_STATUS_EVERY = 12;
/** At most one connection warning per this interval, so a broker outage does not flood the log. */
const CONNECT_WARN_INTERVAL_MS = 5000;

const SILENT: FleetLogger = { info: () => {}, warn: () => {} };

interface DeviceRuntime {
  readonly index: number;
  readonly device: SimulatedDevice;
  readonly model: LockModel;
  link: DeviceLink | null;
  up: boolean;
  everUp: boolean;
  inFlight: number;
  /** Load reports published so far: the `n` of the last id. */
  loadCount: number;
  /** The one heartbeat object a device's load reports are encoded from (only its id and time change). */
  loadReport: ReportToSend;
  /** Created once per device: no closure per message. */
  done: SendCallback;
}

/** A fresh prefix for every start, so that ids never repeat across runs (8 hex digits). */
function newRunPrefix(): string {
  return randomBytes(4).toString('hex');
}

export function startFleet(options: FleetOptions): Fleet {
  const problem = fleetOptionsProblem(options);
  if (problem !== undefined) throw new TypeError(`simulator: ${problem}`);
  const { devices, mode } = options;
  const logger = options.logger ?? SILENT;
  const runPrefix = newRunPrefix();
  const seed = options.seed ?? randomBytes(4).readUInt32BE(0);
  const startAt = Date.now();
  const timeScale = mode.kind === 'behaviour' ? (mode.timeScale ?? 1) : 1;
  // Behaviour runs on a scaled clock; report times and command expiry stay on the real one.
  const simNow = (): number => startAt + (Date.now() - startAt) * timeScale;
  const behaviour: Partial<LockBehaviour> | undefined =
    mode.kind === 'behaviour'
      ? {
          ...mode.behaviour,
          ...(mode.heartbeatSeconds === undefined ? {} : { heartbeatSeconds: mode.heartbeatSeconds }),
        }
      : undefined;

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

  let stopped = false;
  let readySettled = false;
  let waitingForFirstUp = devices.length;
  let resolveReady: () => void = () => {};
  let rejectReady: (error: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  // A caller that never awaits `ready` must not crash the process with an unhandled rejection.
  ready.catch(() => {});
  const settleReady = (error?: Error): void => {
    if (readySettled) return;
    readySettled = true;
    if (error) rejectReady(error);
    else resolveReady();
  };

  let lastConnectWarnAt = 0;
  let connectWarningsSkipped = 0;

  const runtimes: DeviceRuntime[] = devices.map((device, index) => {
    const model = new LockModel({
      code: device.code,
      idPrefix: runPrefix,
      random: createRandom(deriveSeed(seed, index)),
      startAt,
      ...(behaviour === undefined ? {} : { behaviour }),
    });
    const state = model.state;
    const runtime: DeviceRuntime = {
      index,
      device,
      model,
      link: null,
      up: false,
      everUp: false,
      inFlight: 0,
      loadCount: 0,
      loadReport: {
        messageId: '',
        reportedAt: 0,
        event: 'heartbeat',
        lock: state.lock,
        door: state.door,
        battery: Math.floor(state.battery),
        rssi: -60 - (index % 45),
        runState: state.runState,
      },
      done: (error) => {
        runtime.inFlight -= 1;
        if (error) stats.failed += 1;
        else stats.acknowledged += 1;
      },
    };
    return runtime;
  });

  const publish = (runtime: DeviceRuntime, report: ReportToSend): void => {
    stats.published += 1;
    runtime.inFlight += 1;
    runtime.link?.send(report, runtime.done);
  };

  const sessionOf = (runtime: DeviceRuntime): DeviceSession => ({
    index: runtime.index,
    device: runtime.device,
    up: () => {
      if (!runtime.up) {
        runtime.up = true;
        stats.connected += 1;
      }
      if (!runtime.everUp) {
        runtime.everUp = true;
        waitingForFirstUp -= 1;
        if (waitingForFirstUp === 0 && !stopped) {
          logger.info({ devices: devices.length }, 'every simulated device connected');
          settleReady();
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
      if (!runtime.everUp && !stopped) {
        settleReady(
          new Error(`device ${code} (${protocol}) could not connect to ${where}: ${error.message}`),
        );
      }
      const now = Date.now();
      if (stopped) return;
      if (now - lastConnectWarnAt < CONNECT_WARN_INTERVAL_MS) {
        connectWarningsSkipped += 1;
        return;
      }
      logger.warn(
        {
          device: code,
          protocol,
          where,
          error: error.message,
          alsoFailedSinceLastWarning: connectWarningsSkipped,
        },
        'a simulated device lost or could not open its connection; retrying',
      );
      lastConnectWarnAt = now;
      connectWarningsSkipped = 0;
    },
    command: (command: DeviceCommand): ResultToSend | null => {
      stats.commandsReceived += 1;
      const now = simNow();
      const answer = runtime.model.handleCommand(command, now, Date.now());
      // The state report a command causes goes out with the next behaviour tick; load runs send only
      // their counted heartbeats.
      if (mode.kind === 'load') runtime.model.tick(now);
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
  });

  const connections: Connection[] = [];
  const loraSessions: DeviceSession[] = [];
  for (const runtime of runtimes) {
    const session = sessionOf(runtime);
    switch (runtime.device.protocol) {
      case 'mqtt': {
        const link = new NativeMqttLink(session, options.mqttUrl as string);
        runtime.link = link;
        connections.push(link);
        break;
      }
      case 'tcp': {
        const link = new TcpDirectLink(session, options.tcp as { host: string; port: number });
        runtime.link = link;
        connections.push(link);
        break;
      }
      case 'chirpstack':
        loraSessions.push(session);
        break;
    }
  }
  if (loraSessions.length > 0) {
    const chirpstack = options.chirpstack as NonNullable<FleetOptions['chirpstack']>;
    const integration = new ChirpstackIntegration(loraSessions, {
      url: options.mqttUrl as string,
      username: chirpstack.username,
      password: chirpstack.password,
      applicationId: chirpstack.applicationId,
      clientSuffix: runPrefix,
      statusEveryUplinks: mode.kind === 'behaviour' ? CHIRPSTACK_STATUS_EVERY : 0,
    });
    for (const session of loraSessions) {
      const runtime = runtimes[session.index] as DeviceRuntime;
      runtime.link = integration.link(session.device.devEui as string);
    }
    // First, so that all LoRaWAN devices come up with the first connection.
    connections.unshift(integration);
  }

  logger.info(
    {
      devices: devices.length,
      mode: mode.kind,
      mqtt: devices.filter((d) => d.protocol === 'mqtt').length,
      chirpstack: loraSessions.length,
      tcp: devices.filter((d) => d.protocol === 'tcp').length,
    },
    'starting a simulated fleet',
  );

  // Opening 1 000 connections at once would look like an attack to a broker; open them in waves.
  const concurrency = options.connectConcurrency ?? DEFAULT_CONNECT_CONCURRENCY;
  const opened: Connection[] = [];
  let nextConnection = 0;
  let connecting = 0;
  const openMore = (): void => {
    while (!stopped && connecting < concurrency && nextConnection < connections.length) {
      const connection = connections[nextConnection] as Connection;
      nextConnection += 1;
      connecting += 1;
      opened.push(connection);
      connection.open(() => {
        connecting -= 1;
        openMore();
      });
    }
  };
  if (devices.length === 0) settleReady();
  openMore();

  let timer: NodeJS.Timeout | null = null;
  if (mode.kind === 'behaviour') {
    const tick = (): void => {
      const now = simNow();
      for (const runtime of runtimes) {
        const reports = runtime.model.tick(now);
        for (const report of reports) {
          report.reportedAt = Date.now();
          stats.offered += 1;
          publish(runtime, report);
        }
      }
    };
    tick();
    timer = setInterval(tick, BEHAVIOUR_TICK_MS);
  } else {
    const maxInFlight = mode.maxInFlightPerDevice ?? DEFAULT_MAX_IN_FLIGHT;
    const scheduler = new LoadScheduler(mode.rate, runtimes.length);
    let sendTime = 0;
    const sendDue = (deviceIndex: number): void => {
      stats.offered += 1;
      const runtime = runtimes[deviceIndex] as DeviceRuntime;
      if (runtime.inFlight >= maxInFlight) return;
      runtime.loadCount += 1;
      const report = runtime.loadReport;
      report.messageId = loadReportId(runPrefix, deviceIndex, runtime.loadCount);
      report.reportedAt = sendTime;
      publish(runtime, report);
    };
    // Offered load starts once every device is connected, so that the benchmark measures the server.
    ready.then(
      () => {
        if (stopped) return;
        const loadStart = performance.now();
        timer = setInterval(() => {
          sendTime = Date.now();
          scheduler.advance(performance.now() - loadStart, sendDue);
        }, LOAD_TICK_MS);
      },
      () => {},
    );
  }

  let stopping: Promise<void> | null = null;
  const stop = (stopOptions?: { drainMs?: number }): Promise<void> => {
    stopping ??= (async () => {
      stopped = true;
      if (timer !== null) clearInterval(timer);
      settleReady(new Error('the simulated fleet was stopped before every device connected'));
      const deadline = Date.now() + (stopOptions?.drainMs ?? DEFAULT_DRAIN_MS);
      while (stats.published - stats.acknowledged - stats.failed > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await Promise.all(opened.map((connection) => connection.close()));
      logger.info({ ...stats }, 'simulated fleet stopped');
    })();
    return stopping;
  };

  return {
    stats,
    ready,
    stop,
    runPrefix,
    expectedIds: (): ExpectedIds => {
      const perDevice = runtimes.map((runtime) => runtime.loadCount);
      return { runPrefix, perDevice, total: perDevice.reduce((sum, n) => sum + n, 0) };
    },
  };
}
