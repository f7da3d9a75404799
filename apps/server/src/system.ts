import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { startDatabaseMaintenance } from './db/maintenance.ts';
import { listenerConfigOf } from './infra/database-listener.ts';
import { openEventChannel } from './infra/events/event-channel.ts';
import type { BusClient } from './infra/mqtt/bus-client.ts';
import { withoutCredentials } from './infra/mqtt/bus-client.ts';
import type { EmbeddedBroker } from './infra/mqtt/embedded-broker.ts';
import { createNbCommandPlatforms } from './infra/nbiot/index.ts';
import type { Runtime } from './module.ts';
import {
  createTcpDirect,
  DeviceCommandSender,
  SoleWriterLease,
  startDeviceBus,
  TcpDirectStartError,
} from './modules/iot/index.ts';
import { ensureBuiltInAccounts } from './modules/org/index.ts';
import {
  attachNotificationSocket,
  ConsoleEventFeed,
  ConsoleEventPublisher,
  DevicePlaces,
  NotificationHub,
  openNotificationChannel,
} from './modules/realtime/index.ts';
import { createServices, type Services, serverModules } from './services.ts';
import { administerBrokerAccounts } from './start/broker-accounts.ts';
import { startDemoFleet } from './start/demo-fleet.ts';
import { connectDeviceBus, consolePaceOf, startBrokerOf } from './start/device-bus.ts';
import { openDatabase, prepareFileStore, StartupError, tlsOf } from './start/storage.ts';

export { StartupError } from './start/storage.ts';

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

/**
 * Starts the whole system on one process: database (migrated, seeded), device bus (embedded broker unless
 * MQTT_URL is set), the API and the console. Each step below returns what stops it; everything started is
 * stopped again, last first, if a later step fails. Modules make their own event subscriptions
 * (docs/architecture.md): the steps only hand them what they react with.
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
      // The embedded engine has no autovacuum of its own (db/maintenance.ts).
      stops.push(startDatabaseMaintenance(database, log.child({ module: 'database' })));
    }
    // On PostgreSQL several instances may ingest: repeats are left out only by one that is alone.
    const repeatIntervalMs = (config.ingestRepeatSeconds ?? 5) * 1000;
    const writers =
      database.kind === 'postgres'
        ? new SoleWriterLease({
            connection: listenerConfigOf(database.db)!,
            db: database.db,
            logger: log.child({ module: 'ingest' }),
            wantsSole: repeatIntervalMs > 0,
          })
        : null;
    const services = createServices(database.db, config, {
      mailLog: log.child({ module: 'mail' }),
      iotLog: log.child({ module: 'ingest' }),
      commandLog: log.child({ module: 'commands' }),
      eventLog: log.child({ module: 'events' }),
      alarmLog: log.child({ module: 'alarms' }),
      files: { logger: log.child({ module: 'files' }) },
      // PostgreSQL takes concurrent batches (rows are locked in one order); the embedded engine runs one at a time.
      ingest: {
        writers: database.kind === 'postgres' ? 3 : 2,
        repeatIntervalMs,
        ...(writers ? { fence: writers.fence } : {}),
      },
    });
    log.info(services.mail.deliveryDescription);
    log.info(services.alarms.notifier.channelsDescription);
    stops.push(await prepareFileStore(config, database, services, log));
    // Deliveries under way finish before the database closes.
    stops.push(() => services.mail.close());
    // Shared domain events reach the other instances, and theirs this one.
    if (services.events.sharesEvents) {
      stops.push(services.events.connect(await openEventChannel(database, log.child({ module: 'events' }))));
    }
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

    // The demo's simulated ChirpStack needs an account even when none is configured.
    const chirpstackPassword =
      config.chirpstackMqttPassword ?? (config.demo ? randomBytes(18).toString('base64url') : undefined);
    const broker = await startBrokerOf({ config, services, tls, chirpstackPassword, log });
    if (broker) stops.push(() => broker.stop());
    const bus = await connectDeviceBus(config, broker, log);
    stops.push(() => bus.close());
    // Processed events go to the console topics; the last of them are sent before the bus closes.
    const publisher = new ConsoleEventPublisher({
      transport: bus,
      logger: realtimeLog,
      ...consolePaceOf(broker),
    });
    stops.push(async () => publisher.close());
    const consoleEvents = new ConsoleEventFeed({
      publisher,
      places: new DevicePlaces(database.db),
      notifications,
      logger: realtimeLog,
    });
    const brokerAccounts = await administerBrokerAccounts({
      bus,
      embedded: !!broker,
      config,
      database,
      services,
      chirpstackPassword,
      log,
    });
    if (brokerAccounts) stops.push(brokerAccounts.stop);
    const tcpDirect = createTcpDirect({
      host: config.host,
      port: config.tcpDirectPort,
      credentials: services.deviceCredentials,
      ingest: services.iot.ingest,
      logger: log.child({ module: 'tcp-direct' }),
    });

    // Every module follows the running parts before any device is let in, and until ingest has closed.
    const runtime: Runtime = {
      notifications,
      consoleEvents,
      broker,
      tcpDirect,
      brokerAccounts,
      logger: (name) => log.child({ module: name }),
    };
    const unfollows = serverModules.flatMap((module) => module.follow?.(services.events, runtime) ?? []);
    stops.push(async () => {
      for (const unfollow of unfollows) unfollow();
      await consoleEvents.settled();
    });

    // On PostgreSQL ingest joins the other instances (in the background: until then its batches are fenced),
    // and leaves once it has closed.
    if (writers) stops.push(writers.start(services.iot.ingest));
    // Ingest finishes what it holds before the bus goes (the last batches are acknowledged).
    stops.push(() => services.iot.ingest.close());
    stops.push(await startDeviceBus(bus, services.iot.ingest));
    await tcpDirect.listen().catch((error: unknown) => {
      throw error instanceof TcpDirectStartError ? new StartupError(error.message) : error;
    });
    stops.push(() => tcpDirect.close());
    if (config.demo) {
      stops.push(
        await startDemoFleet({
          database,
          services,
          mqttUrl: withoutCredentials(broker?.url ?? config.mqttUrl!),
          chirpstackPassword,
          tcpDirectPort: tcpDirect.port,
          log: log.child({ module: 'demo' }),
        }),
      );
    }
    // Commands leave through the device bus and TcpDirect, which start after the services are built (tests
    // build them without either), hence the sender attached this late.
    const commands = new DeviceCommandSender(
      database.db,
      bus,
      tcpDirect,
      createNbCommandPlatforms(config.nbCommandPlatforms ?? {}),
    );
    services.commands.attachSender(commands);
    for (const module of serverModules) {
      const stopJobs = module.jobs?.({
        services,
        db: database.db,
        config,
        logger: (name) => log.child({ module: name }),
      });
      if (stopJobs) stops.push(stopJobs);
    }

    const app = await buildApp({
      // Browsers are sent to the port the embedded broker really listens on (0 picks one).
      config: { ...config, mqttWsPort: broker?.wsPort ?? config.mqttWsPort },
      ...(tls ? { tls: { cert: tls.cert, key: tls.key } } : {}),
      database,
      services,
      busConnected: () => bus.connected,
      ...(brokerAccounts ? { brokerLogins: brokerAccounts.consoles } : {}),
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
