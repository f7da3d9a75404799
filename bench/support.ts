import { ADMIN_STAFF_ID, API_PREFIX, api } from '@uiot/contracts';
import { buildApp } from '../apps/server/src/app.ts';
import { type Database, openPglite } from '../apps/server/src/db/client.ts';
import { SILENT_LOGGER } from '../apps/server/src/lib/module-logger.ts';
import { ensureBuiltInAccounts } from '../apps/server/src/modules/org/admin-account.ts';
import { createServices } from '../apps/server/src/services.ts';
import { openOwnPostgres } from '../apps/server/test/support/databases.ts';

const PASSWORD = 'Bench-Admin-2026';

export interface BenchServer {
  database: Database;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** The administrator's bearer token (and English answers). */
  headers: Record<string, string>;
  close(): Promise<void>;
}

export interface BenchServerOptions {
  /**
   * A PostgreSQL administrator URL: the server runs on a database of its own, `uiot_bench_<hex>`, created
   * there and dropped at `close`. Unset: a fresh embedded database in memory.
   */
  databaseUrl?: string;
}

/**
 * The API on a fresh database, listening on a free port, with the administrator signed in.
 * `prepare` fills the database before the server starts.
 */
export async function startBenchServer(
  prepare?: (database: Database) => Promise<void>,
  options: BenchServerOptions = {},
): Promise<BenchServer> {
  const database = options.databaseUrl
    ? await openOwnPostgres(options.databaseUrl, 'uiot_bench', 10)
    : await openPglite(null);
  if (!options.databaseUrl) await database.migrate();
  const services = createServices(database.db, { sessionIdleSeconds: 3600, sessionMaxSeconds: 7200 });
  await services.params.seedDefaults();
  await ensureBuiltInAccounts(database.db, PASSWORD);
  await prepare?.(database);
  const stopSessions = await services.sessions.start(database, SILENT_LOGGER);
  const app = await buildApp({
    config: { corsOrigins: [], webDistDir: '/nonexistent', mqttWsPort: 8083, logLevel: 'silent' },
    database,
    services,
    busConnected: () => true,
    logger: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const login = await fetch(`${base}${API_PREFIX}${api.auth.loginCheck.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: ADMIN_STAFF_ID, pwd: PASSWORD }),
  });
  const { data } = (await login.json()) as { data: { token: string } };
  return {
    database,
    base,
    headers: { authorization: `Bearer ${data.token}`, 'accept-language': 'en' },
    close: async () => {
      await app.close();
      await stopSessions();
      await database.close();
    },
  };
}
