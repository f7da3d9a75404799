import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { type Database, openPglite, openPostgres } from './db/client.ts';
import { DEFAULT_STATION, ensureBuiltInAccounts } from './modules/org/admin-account.ts';
import { type BusClient, connectBus } from './modules/realtime/bus-client.ts';
import { consoleIdentity } from './modules/realtime/console-identity.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from './modules/realtime/embedded-broker.ts';
import { createServices, type Services } from './services.ts';

export interface RunningSystem {
  app: FastifyInstance;
  database: Database;
  services: Services;
  /** Address of the HTTP listener, e.g. http://127.0.0.1:8686 */
  url: string;
  stop(): Promise<void>;
}

export class StartupError extends Error {
  override name = 'StartupError';
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
): Promise<RunningSystem> {
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) {
      await stop().catch((error: unknown) => log.error({ err: error }, 'shutdown step failed'));
    }
  };
  try {
    const database = await openDatabase(config);
    stops.push(() => database.close());
    await database.migrate();
    const services = createServices(database.db, config, { mailLog: log.child({ module: 'mail' }) });
    log.info(services.mail.deliveryDescription);
    // Deliveries under way finish before the database closes.
    stops.push(() => services.mail.close());
    await services.params.seedDefaults();
    const admin = await ensureBuiltInAccounts(database.db, config.adminPassword);
    if (admin.generatedPassword) onAdminPassword(admin.generatedPassword);

    let broker: EmbeddedBroker | null = null;
    if (!config.mqttUrl) {
      broker = await startEmbeddedBroker({
        port: config.mqttPort,
        wsPort: config.mqttWsPort,
        logger: log.child({ module: 'broker' }),
        authorize: async ({ username, password }) => {
          const user = password ? await services.sessions.resolve(password) : null;
          return consoleIdentity(user, username, DEFAULT_STATION.id);
        },
      });
      const started = broker;
      stops.push(() => started.stop());
      // A signed-out or disabled user loses its console connection at once.
      services.sessions.onRevoked((staffId) => started.revoke(staffId));
    }
    const bus: BusClient = await connectBus({
      url: broker?.url ?? config.mqttUrl!,
      ...(broker ? broker.internalCredentials : {}),
      clientId: `uiot-server-${process.pid}-${Date.now().toString(36)}`,
      // aedes has no shared subscriptions; an external broker shares device topics between instances.
      sharedSubscriptions: !broker,
      logger: log.child({ module: 'bus' }),
    });
    stops.push(() => bus.close());

    const app = await buildApp({
      config,
      database,
      services,
      busConnected: () => bus.connected,
      logger: undefined,
      loggerInstance: log,
    });
    stops.push(() => app.close());
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
    return { app, database, services, url: `http://127.0.0.1:${port}`, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
