import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { type Database, openPglite, openPostgres } from './db/client.ts';
import { checkFileStore, startFileSweep } from './infra/files/file-sweep.ts';
import { type BusClient, connectBus, withoutCredentials } from './infra/mqtt/bus-client.ts';
import { MosquittoDynsecAccess } from './infra/mqtt/dynsec.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from './infra/mqtt/embedded-broker.ts';
import { errorMessage } from './lib/module-logger.ts';
import { startPeriodicJobs } from './lib/periodic-jobs.ts';
import { DEFAULT_STATION } from './lib/station.ts';
import { startCommandScheduler } from './modules/commands/index.ts';
import {
  brokerAuthorizer,
  consoleRechecker,
  DEMO_HEARTBEAT_SECONDS,
  DeviceCommandSender,
  prepareDemoStation,
  startDeviceBus,
  startRuntimeJobs,
  startTcpDirect,
  TcpDirectStartError,
} from './modules/iot/index.ts';
import { ensureBuiltInAccounts, moveLegacySignatures } from './modules/org/index.ts';
import {
  attachNotificationSocket,
  ConsoleAccounts,
  type ConsoleBrokerLogins,
  ConsoleEventFeed,
  ConsoleEventPublisher,
  DevicePlaces,
  endedSessionsOf,
  NotificationHub,
  openNotificationChannel,
  openSessionsOf,
} from './modules/realtime/index.ts';
import { createServices, type Services } from './services.ts';
import { readTlsFiles, TlsFileError, type TlsMaterial } from './tls-files.ts';

export interface RunningSystem {
  app: FastifyInstance;
  database: Database;
  services: Services;
  /** Address of the HTTP listener, e.g. http://127.0.0.1:8686 (https:// with TLS_CERT and TLS_KEY) */
  url: string;
  /** Where devices connect: the MQTT broker URL and the TcpDirect port. */
  deviceBus: {
    mqttUrl: string;
    tcpDirectPort: number;
    broker: EmbeddedBroker | null;
    bus: BusClient;
    /** Sends commands down to devices (the command service builds on it). */
    commands: DeviceCommandSender;
  };
  /** The console's live channels: console topics and per-user notifications (docs/realtime.md). */
  realtime: {
    consoleEvents: ConsoleEventFeed;
    notifications: NotificationHub;
  };
  stop(): Promise<void>;
}

/** A stable client id per host and port, so the external broker keeps this instance's session. */
function externalClientId(config: Config): string {
  return `uiot-server-${hostname()
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .slice(0, 40)}-${config.port}`;
}

/**
 * With an external Mosquitto, device accounts live in its dynamic security plugin: the server keeps them in
 * step with the credentials it issues and withdraws.
 */
async function administerDeviceAccounts(
  bus: BusClient,
  config: Config,
  services: Services,
  log: Logger,
  chirpstackPassword: string | undefined,
) {
  const logger = log.child({ module: 'dynsec' });
  const serverUsername = decodeURIComponent(new URL(config.mqttUrl!).username) || undefined;
  const access = new MosquittoDynsecAccess(bus, { logger, ...(serverUsername ? { serverUsername } : {}) });
  try {
    await access.prepare();
    if (chirpstackPassword) await access.grantChirpstack(chirpstackPassword);
  } catch (error) {
    throw new StartupError(
      `MQTT_URL: cannot administer device accounts on the broker (${(error as Error).message}); ` +
        "load Mosquitto's dynamic security plugin and give the server an admin account, or set MQTT_DEVICE_AUTH=broker",
    );
  }
  services.events.subscribe('credential.changed', 'dynsec', ({ code, stationId, secret }) => {
    const change = secret ? access.grant({ code, stationId, secret }) : access.revoke(code);
    change.catch((error: unknown) =>
      logger.error({ code, error: errorMessage(error) }, 'device account not updated on the broker'),
    );
  });
  return access;
}

/** Console events through the embedded broker: it passes large messages on as fast as small ones. */
const EMBEDDED_CONSOLE_PACE = { maxBytes: 256 * 1024, bytesPerSecond: 4_000_000 };
/**
 * Console events through an external broker. Mosquitto 2.0's WebSocket listener (with Debian's
 * libwebsockets) sends a message over ~4 KB to a browser one piece per pass of its loop: measured here, a
 * 32 KB message every 50 ms arrived seconds late and fell further behind, while 4 KB messages took
 * 2 MB/s in stride when the broker had nothing else to do (docs/scale-out.md).
 */
const EXTERNAL_CONSOLE_PACE = { maxBytes: 4_000, bytesPerSecond: 1_500_000 };

/** How often console accounts of sessions ended by an expiry are removed from the broker. */
const CONSOLE_ACCOUNT_SWEEP_MS = 10 * 60_000;

/**
 * With device accounts in Mosquitto's dynamic security plugin, browsers get accounts there too, one per
 * session (docs/scale-out.md); they are removed when their session ends. Returns the logins and the stop.
 */
function administerConsoleAccounts(
  access: MosquittoDynsecAccess,
  database: Database,
  services: Services,
  log: Logger,
): { logins: ConsoleBrokerLogins; stop: () => Promise<void> } {
  const logger = log.child({ module: 'console-accounts' });
  const accounts = new ConsoleAccounts({
    access,
    stationId: DEFAULT_STATION.id,
    sessionStands: (tokenHash) => services.sessions.stands(tokenHash),
    permissionsOf: async (tokenHash) => (await services.sessions.userOf(tokenHash))?.permissions ?? null,
    endedSessionsOf: (staffId) => endedSessionsOf(database.db, staffId),
    openSessionsOf: (staffId) => openSessionsOf(database.db, staffId),
    logger,
  });
  const unlistenRevoked = services.events.subscribe('session.revoked', 'console accounts', ({ staffId }) => {
    accounts
      .sessionsEnded(staffId)
      .catch((error: unknown) =>
        logger.error({ error: errorMessage(error) }, 'console accounts of ended sessions not removed'),
      );
  });
  // Every instance hears a change of permissions; the accounts change once (the others find them in step).
  const unlistenChanged = services.events.subscribe('session.changed', 'console accounts', (change) =>
    accounts.sessionsChanged(change),
  );
  const stopSweep = startPeriodicJobs(
    [
      {
        name: 'console-account-sweep',
        intervalMs: CONSOLE_ACCOUNT_SWEEP_MS,
        run: () => accounts.sweep(),
        atStart: true,
      },
    ],
    logger,
    'console account sweep failed',
  );
  return {
    logins: accounts,
    stop: async () => {
      unlistenRevoked();
      unlistenChanged();
      await stopSweep();
    },
  };
}

/** DEMO=1: the demo station's devices, driven by simulated locks in this process. */
async function startDemoFleet(options: {
  database: Database;
  services: Services;
  mqttUrl: string;
  chirpstackPassword: string | undefined;
  tcpDirectPort: number;
  log: Logger;
}): Promise<() => Promise<void>> {
  const { services, log } = options;
  // Its locks are IoT locks: while SupportIoT is off they are not managed, so not registered nor simulated.
  if (!(await services.params.getBoolean('SupportIoT'))) {
    log.warn('SupportIoT is off: the demo station is not simulated');
    return async () => {};
  }
  const credentials = await prepareDemoStation(
    options.database.db,
    services.devices.ledger,
    DEFAULT_STATION.id,
  );
  const { startFleet } = await import('@uiot/simulator');
  const fleet = startFleet({
    devices: credentials.map((c) => ({
      stationId: c.stationId,
      code: c.code,
      secret: c.secret,
      protocol: c.protocol,
      ...(c.devEui ? { devEui: c.devEui } : {}),
    })),
    mqttUrl: options.mqttUrl,
    ...(options.chirpstackPassword
      ? {
          chirpstack: { username: 'chirpstack', password: options.chirpstackPassword, applicationId: 'demo' },
        }
      : {}),
    tcp: { host: '127.0.0.1', port: options.tcpDirectPort },
    mode: { kind: 'behaviour', heartbeatSeconds: DEMO_HEARTBEAT_SECONDS },
    logger: log,
  });
  fleet.ready.then(
    () => log.info({ devices: credentials.length }, 'demo station running with simulated locks'),
    (error: unknown) => log.error({ error: errorMessage(error) }, 'demo locks could not connect'),
  );
  return () => fleet.stop();
}

export class StartupError extends Error {
  override name = 'StartupError';
}

function tlsOf(config: Config): TlsMaterial | undefined {
  if (!config.tls) return undefined;
  try {
    return readTlsFiles(config.tls);
  } catch (error) {
    throw error instanceof TlsFileError ? new StartupError(error.message) : error;
  }
}

async function openDatabase(config: Config): Promise<Database> {
  if (config.databaseUrl) {
    try {
      return await openPostgres(config.databaseUrl);
    } catch (error) {
      throw new StartupError(`DATABASE_URL: cannot connect to PostgreSQL (${(error as Error).message})`);
    }
  }
  return openPglite(path.join(config.dataDir, 'db'));
}

/**
 * Starts the whole system on one process: database (migrated, seeded), device bus (embedded broker unless
 * MQTT_URL is set), the API and the console. Everything started is stopped again if a later step fails.
 */
export async function startSystem(
  config: Config,
  log: Logger,
  onAdminPassword: (password: string) => void,
  overrides: { database?: Database } = {},
): Promise<RunningSystem> {
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) {
      await stop().catch((error: unknown) => log.error({ err: error }, 'shutdown step failed'));
    }
  };
  try {
    // Checked before anything starts: a bad certificate stops the start with one line.
    const tls = tlsOf(config);
    if (tls) log.info({ validTo: tls.validTo }, 'serving HTTPS and WSS with the certificate in TLS_CERT');
    // A database handed in (tests) is migrated by its owner and stays open after stop.
    const database = overrides.database ?? (await openDatabase(config));
    if (!overrides.database) {
      stops.push(() => database.close());
      await database.migrate();
    }
    const services = createServices(database.db, config, {
      mailLog: log.child({ module: 'mail' }),
      iotLog: log.child({ module: 'ingest' }),
      commandLog: log.child({ module: 'commands' }),
      eventLog: log.child({ module: 'events' }),
      files: { logger: log.child({ module: 'files' }) },
      // PostgreSQL takes concurrent batches (rows are locked in one order); the embedded engine runs one at a time.
      ingest: { writers: database.kind === 'postgres' ? 3 : 2 },
    });
    log.info(services.mail.deliveryDescription);
    const fileStoreProblem = await checkFileStore(services.files);
    if (fileStoreProblem) {
      const setting = config.fileStore ? 'FILE_STORE_URL' : 'DATA_DIR';
      throw new StartupError(
        `${setting}: cannot store files in the ${services.files.store.description} (${fileStoreProblem})`,
      );
    }
    log.info({ store: services.files.store.description }, 'files are kept in the file store');
    await moveLegacySignatures(database.db, services.files);
    stops.push(startFileSweep(services.files, log.child({ module: 'files' })));
    // Deliveries under way finish before the database closes.
    stops.push(() => services.mail.close());
    // Sessions are served from memory from here on, each change announced by the database dropping them.
    stops.push(await services.sessions.start(database, log.child({ module: 'sessions' })));
    await services.params.seedDefaults();
    const admin = await ensureBuiltInAccounts(database.db, config.adminPassword);
    if (admin.generatedPassword) onAdminPassword(admin.generatedPassword);

    // Per-user notifications reach the user's sockets on whichever instance holds them.
    const realtimeLog = log.child({ module: 'realtime' });
    const notifications = new NotificationHub({
      channel: await openNotificationChannel(database, realtimeLog),
      sessionStands: (tokenHash) => services.sessions.stands(tokenHash),
      permissionsOf: async (tokenHash) => (await services.sessions.userOf(tokenHash))?.permissions ?? null,
      logger: realtimeLog,
    });
    stops.push(() => notifications.close());
    services.events.subscribe('session.revoked', 'notifications', ({ staffId }) =>
      notifications.sessionsEnded(staffId),
    );

    // The demo's simulated ChirpStack needs an account even when none is configured.
    const chirpstackPassword =
      config.chirpstackMqttPassword ?? (config.demo ? randomBytes(18).toString('base64url') : undefined);
    let broker: EmbeddedBroker | null = null;
    if (!config.mqttUrl) {
      broker = await startEmbeddedBroker({
        port: config.mqttPort,
        wsPort: config.mqttWsPort,
        ...(tls ? { tls: { cert: tls.cert, key: tls.key } } : {}),
        logger: log.child({ module: 'broker' }),
        authorize: brokerAuthorizer({
          credentials: services.deviceCredentials,
          resolveSession: (token) => services.sessions.resolve(token),
          stationId: DEFAULT_STATION.id,
          chirpstackPassword,
        }),
        recheckConsole: consoleRechecker({
          userOf: (tokenHash) => services.sessions.userOf(tokenHash),
          stationId: DEFAULT_STATION.id,
        }),
      });
      const started = broker;
      stops.push(() => started.stop());
      // A signed-out or disabled user loses its console connection at once.
      services.events.subscribe('session.revoked', 'broker', ({ staffId }) => started.revoke(staffId));
      // A browser whose permissions changed receives from then on only the kinds they read.
      services.events.subscribe('session.changed', 'broker', (change) =>
        started.refreshConsoles(
          change.scope === 'session'
            ? { session: change.tokenHash }
            : change.scope === 'staff'
              ? { username: change.staffId }
              : {},
        ),
      );
      // So does a device whose credential was withdrawn or replaced.
      services.events.subscribe('credential.changed', 'broker', ({ code }) => started.revoke(code));
    }
    const bus: BusClient = await connectBus({
      url: broker?.url ?? config.mqttUrl!,
      ...(broker ? broker.internalCredentials : {}),
      // An external broker keeps this server's session (and the QoS 1 reports queued for it) across
      // reconnections. The embedded aedes does not get one: its persistent sessions store every in-flight
      // message and slow down as a backlog grows until it crashes (measured, bench/ingest); it starts empty
      // with its process anyway.
      clientId: broker ? `uiot-server-${process.pid}-${Date.now().toString(36)}` : externalClientId(config),
      clean: !!broker,
      // aedes has no shared subscriptions; an external broker shares device topics between instances.
      sharedSubscriptions: !broker && config.mqttSharedSubscription,
      // Reports are acknowledged once committed; up to this many are read on meanwhile.
      ackAfterHandlers: true,
      maxInFlightHandlers: 20_000,
      logger: log.child({ module: 'bus' }),
    });
    stops.push(() => bus.close());
    // Processed events go to the console topics; the last of them are sent before the bus closes.
    const publisher = new ConsoleEventPublisher({
      transport: bus,
      logger: realtimeLog,
      ...(broker ? EMBEDDED_CONSOLE_PACE : EXTERNAL_CONSOLE_PACE),
    });
    stops.push(async () => publisher.close());
    const consoleEvents = new ConsoleEventFeed({
      publisher,
      places: new DevicePlaces(database.db),
      notifications,
      logger: realtimeLog,
    });
    const unfeedIngest = services.events.subscribe('report.stored', 'console events', (commit) =>
      consoleEvents.ingestCommitted(commit),
    );
    const unfeedCommands = services.events.subscribe('command.changed', 'console events', (updates) =>
      consoleEvents.commandsChanged(updates),
    );
    const unfeedOffline = services.events.subscribe('runtime.offline', 'console events', (devices) =>
      consoleEvents.devicesOffline(devices),
    );
    stops.push(async () => {
      unfeedIngest();
      unfeedCommands();
      unfeedOffline();
      await consoleEvents.settled();
    });
    // Without accounts kept by the server, the broker asks about browsers (embedded) or the operator's
    // broker checks them itself (MQTT_DEVICE_AUTH=broker): they sign in with their staff id.
    let brokerLogins: ConsoleBrokerLogins | undefined;
    if (!broker && config.mqttDeviceAuth === 'dynsec') {
      const access = await administerDeviceAccounts(bus, config, services, log, chirpstackPassword);
      const consoleAccounts = administerConsoleAccounts(access, database, services, log);
      stops.push(consoleAccounts.stop);
      brokerLogins = consoleAccounts.logins;
    }
    // Ingest finishes what it holds before the bus goes (the last batches are acknowledged).
    stops.push(() => services.iot.ingest.close());
    const stopDeviceBus = await startDeviceBus(bus, services.iot.ingest);
    stops.push(stopDeviceBus);
    const tcpDirect = await startTcpDirect({
      host: config.host,
      port: config.tcpDirectPort,
      credentials: services.deviceCredentials,
      ingest: services.iot.ingest,
      logger: log.child({ module: 'tcp-direct' }),
    }).catch((error: unknown) => {
      throw error instanceof TcpDirectStartError ? new StartupError(error.message) : error;
    });
    stops.push(() => tcpDirect.close());
    // A lock whose secret was replaced or withdrawn must authenticate again.
    services.events.subscribe('credential.changed', 'tcp-direct', ({ code }) => tcpDirect.disconnect(code));
    if (config.demo) {
      const stopDemo = await startDemoFleet({
        database,
        services,
        mqttUrl: withoutCredentials(broker?.url ?? config.mqttUrl!),
        chirpstackPassword,
        tcpDirectPort: tcpDirect.port,
        log: log.child({ module: 'demo' }),
      });
      stops.push(stopDemo);
    }
    const stopJobs = startRuntimeJobs({
      db: database.db,
      history: services.iot.history,
      retentionDays: config.historyRetentionDays,
      logger: log.child({ module: 'runtime' }),
      onOffline: (devices) => services.events.publish('runtime.offline', devices),
    });
    stops.push(stopJobs);
    const commands = new DeviceCommandSender(database.db, bus, tcpDirect);
    services.commands.attachSender(commands);
    stops.push(startCommandScheduler(services.commands, log.child({ module: 'commands' })));

    const app = await buildApp({
      // Browsers are sent to the port the embedded broker really listens on (0 picks one).
      config: { ...config, mqttWsPort: broker?.wsPort ?? config.mqttWsPort },
      ...(tls ? { tls: { cert: tls.cert, key: tls.key } } : {}),
      database,
      services,
      busConnected: () => bus.connected,
      ...(brokerLogins ? { brokerLogins } : {}),
      logger: undefined,
      loggerInstance: log,
    });
    stops.push(() => app.close());
    // Open sockets are closed first: the HTTP server waits for them.
    const notificationSocket = attachNotificationSocket({
      server: app.server,
      hub: notifications,
      resolveSession: (token) => services.sessions.resolve(token),
      logger: realtimeLog,
    });
    stops.push(() => notificationSocket.close());
    try {
      await app.listen({ port: config.port, host: config.host });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
        throw new StartupError(`PORT ${config.port} is already in use: set PORT to a free port`);
      }
      throw error;
    }
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    return {
      app,
      database,
      services,
      url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
      deviceBus: {
        mqttUrl: broker?.url ?? config.mqttUrl!,
        tcpDirectPort: tcpDirect.port,
        broker,
        bus,
        commands,
      },
      realtime: { consoleEvents, notifications },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
