import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openPglite, openPostgres } from '../../src/db/client.ts';

/** A migrated, empty database of one engine, private to one test suite. */
export interface TestDatabase extends Database {
  /** Ends the connections and removes the database. */
  close(): Promise<void>;
}

export interface TestDatabaseKind {
  kind: 'pglite' | 'postgres';
  open(): Promise<TestDatabase>;
}

async function openTestPglite(): Promise<TestDatabase> {
  const database = await openPglite(null);
  try {
    await database.migrate();
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function adminQuery<R extends pg.QueryResultRow = pg.QueryResultRow>(
  adminUrl: string,
  text: string,
  values: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Waits until the server has seen the pool's connections go. `pool.end()` resolves once the clients have
 * asked to end, not once the server has closed them; a forced DROP before that would kill them, and the
 * pool's clients would report the killing as an uncaught error.
 */
async function waitForNoConnections(adminUrl: string, name: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [row] = await adminQuery<{ n: number }>(
      adminUrl,
      'select count(*)::int as n from pg_stat_activity where datname = $1',
      [name],
    );
    if (!row || row.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A migrated database of its own, `<prefix>_<hex>`, created through the administrator URL and dropped again
 * by `close` (test suites, benchmarks); `migrated: false` leaves it empty.
 */
export async function openOwnPostgres(
  adminUrl: string,
  prefix: string,
  poolSize = 5,
  migrated = true,
): Promise<TestDatabase> {
  // The name is generated here from a fixed prefix and hex digits only, so it is safe in the statement.
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const drop = async () => {
    await waitForNoConnections(adminUrl, name);
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
  let database: Database;
  try {
    database = await openPostgres(withDatabaseName(adminUrl, name), poolSize);
  } catch (error) {
    await drop();
    throw error;
  }
  try {
    if (migrated) await database.migrate();
  } catch (error) {
    await database.close().catch(() => undefined);
    await drop();
    throw error;
  }
  return {
    ...database,
    close: async () => {
      try {
        await database.close();
      } finally {
        await drop();
      }
    },
  };
}

/**
 * The engines every integration suite runs on: PGlite always, PostgreSQL as well when TEST_DATABASE_URL
 * (an administrator URL: the suite creates and drops its own database through it) is set.
 * Use with `describe.each(testDatabaseKinds())('... ($kind)', ({ open }) => ...)`.
 */
export function testDatabaseKinds(env: NodeJS.ProcessEnv = process.env): TestDatabaseKind[] {
  const kinds: TestDatabaseKind[] = [{ kind: 'pglite', open: openTestPglite }];
  const adminUrl = env.TEST_DATABASE_URL?.trim();
  if (adminUrl) kinds.push({ kind: 'postgres', open: () => openOwnPostgres(adminUrl, 'uiot_t') });
  return kinds;
}

export const databases = testDatabaseKinds();
