import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN_STAFF_ID } from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import { openPglite } from '../../apps/server/src/db/client.ts';
import { hashPassword } from '../../apps/server/src/lib/password-hash.ts';
import { freePort } from '../../apps/server/src/lib/test-support.ts';
import { ensureBuiltInAccounts } from '../../apps/server/src/modules/org/admin-account.ts';
import { staff } from '../../apps/server/src/modules/org/org.schema.ts';
import { ParamService } from '../../apps/server/src/modules/params/param.service.ts';
import {
  type ServerProcess,
  spawnServer,
  tempDir,
  waitReady,
} from '../../apps/server/test/support/server-process.ts';
import { consoleAddress } from './browser.ts';

export const ADMIN_PASSWORD = 'E2e-Admin-Passw0rd';

/** The built console (`npm run build -w apps/web`). */
export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../apps/web/dist');

export interface SeedUser {
  name: string;
  password: string;
  mustChangePassword?: boolean;
}

export interface RunningConsole {
  /** Where a browser opens the console: `http://console.test:PORT` (https with `tls`), see launchBrowser. */
  url: string;
  /** The same server for the test's own calls (Node cannot resolve console.test): `http://127.0.0.1:PORT`. */
  apiUrl: string;
  server: ServerProcess;
  stop(): Promise<void>;
}

/** Prepares the embedded database (accounts, parameters, users) before the server opens it. */
async function seed(dataDir: string, users: SeedUser[], params: Record<string, string>): Promise<void> {
  const database = await openPglite(path.join(dataDir, 'db'));
  try {
    await database.migrate();
    await new ParamService(database.db).seedDefaults();
    await ensureBuiltInAccounts(database.db, ADMIN_PASSWORD);
    for (const user of users) {
      await database.db.insert(staff).values({
        name: user.name,
        passwordHash: await hashPassword(user.password),
        mustChangePassword: user.mustChangePassword ?? false,
      });
    }
    for (const [name, val] of Object.entries(params)) {
      await new ParamService(database.db).setValue(name, val);
    }
    const [admin] = await database.db.select().from(staff).where(eq(staff.id, ADMIN_STAFF_ID));
    if (!admin) throw new Error('admin was not created');
  } finally {
    await database.close();
  }
}

/** Whether the copy has `index.html` and every file it loads. */
function isCompleteBuild(dir: string): boolean {
  const index = path.join(dir, 'index.html');
  if (!existsSync(index)) return false;
  const files = [...readFileSync(index, 'utf8').matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)];
  return files.length > 0 && files.every(([, file]) => existsSync(path.join(dir, file!)));
}

/**
 * A copy of the built console for one server, so that a rebuild of apps/web/dist while the tests run (other
 * work on the same machine) cannot swap the files under a running server; a copy taken while a build
 * is being written is incomplete and taken again once the build is done.
 */
async function snapshotConsole(target: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    rmSync(target, { recursive: true, force: true });
    if (existsSync(WEB_DIST)) cpSync(WEB_DIST, target, { recursive: true });
    if (isCompleteBuild(target)) return;
    if (Date.now() > deadline) {
      throw new Error(`${WEB_DIST} has no complete build of the console: run npm run build -w apps/web`);
    }
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/** Attempts at starting a server whose port another process took between its choice and the bind. */
const PORT_ATTEMPTS = 3;

/**
 * Starts the server and waits until it is ready, on other ports when one it was given is taken by the time
 * it binds (another test's server may have chosen the same one meanwhile).
 */
async function spawnOnFreePorts(envOf: () => Promise<Record<string, string>>): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    const server = spawnServer(await envOf());
    try {
      await waitReady(server);
      return server;
    } catch (error) {
      server.child.kill('SIGKILL');
      await server.exited;
      if (attempt >= PORT_ATTEMPTS || !server.output().includes('is already in use')) throw error;
    }
  }
}

/**
 * Starts the real server (`npm start`'s entry) on free ports with its own data folder, serving a copy of
 * the built console taken at start.
 */
export async function startConsole(
  options: {
    users?: SeedUser[];
    params?: Record<string, string>;
    /** More environment of the server, e.g. `SMTP_URL` of a local mail sink. */
    env?: Record<string, string>;
    /** Certificate and key files: the server serves HTTPS and WSS (TLS_CERT, TLS_KEY). */
    tls?: { certFile: string; keyFile: string };
  } = {},
): Promise<RunningConsole> {
  const data = tempDir('uiot-e2e-');
  await seed(data.dir, options.users ?? [], options.params ?? {});
  const web = path.join(data.dir, 'web');
  await snapshotConsole(web);
  const server = await spawnOnFreePorts(async () => ({
    PORT: String(await freePort()),
    MQTT_PORT: String(await freePort()),
    MQTT_WS_PORT: String(await freePort()),
    TCP_DIRECT_PORT: String(await freePort()),
    DATA_DIR: data.dir,
    WEB_DIST_DIR: web,
    ...(options.tls ? { TLS_CERT: options.tls.certFile, TLS_KEY: options.tls.keyFile } : {}),
    ...options.env,
  })).catch((error: unknown) => {
    data.remove();
    throw error;
  });
  return {
    url: consoleAddress(server.url),
    apiUrl: server.url,
    server,
    stop: async () => {
      server.child.kill('SIGTERM');
      await server.exited;
      data.remove();
    },
  };
}
