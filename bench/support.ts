import { ADMIN_STAFF_ID } from '@uiot/contracts';
import { buildApp } from '../apps/server/src/app.ts';
import { type Database, openPglite } from '../apps/server/src/db/client.ts';
import { ensureBuiltInAccounts } from '../apps/server/src/modules/org/admin-account.ts';
import { createServices } from '../apps/server/src/services.ts';

const PASSWORD = 'Bench-Admin-2026';

export interface BenchServer {
  database: Database;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** The administrator's bearer token (and English answers). */
  headers: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The API on a fresh embedded database, listening on a free port, with the administrator signed in.
 * `prepare` fills the database before the server starts.
 */
export async function startBenchServer(
  prepare?: (database: Database) => Promise<void>,
): Promise<BenchServer> {
  const database = await openPglite(null);
  await database.migrate();
  const services = createServices(database.db, { sessionIdleSeconds: 3600, sessionMaxSeconds: 7200 });
  await services.params.seedDefaults();
  await ensureBuiltInAccounts(database.db, PASSWORD);
  await prepare?.(database);
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

  const login = await fetch(`${base}/api/staff/loginCheck`, {
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
      await database.close();
    },
  };
}
