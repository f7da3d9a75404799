import path from 'node:path';
import { ADMIN_STAFF_ID } from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import { openPglite } from '../../apps/server/src/db/client.ts';
import { hashPassword } from '../../apps/server/src/modules/auth/password-hash.ts';
import { ensureBuiltInAccounts } from '../../apps/server/src/modules/org/admin-account.ts';
import { staff } from '../../apps/server/src/modules/org/org.schema.ts';
import { ParamService } from '../../apps/server/src/modules/params/param.service.ts';
import {
  freePort,
  type ServerProcess,
  spawnServer,
  tempDir,
  waitReady,
} from '../../apps/server/test/support/server-process.ts';

export const ADMIN_PASSWORD = 'E2e-Admin-Passw0rd';

export interface SeedUser {
  name: string;
  password: string;
  mustChangePassword?: boolean;
}

export interface RunningConsole {
  url: string;
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

/** Starts the real server (`npm start`'s entry) on free ports with its own data folder. */
export async function startConsole(
  options: { users?: SeedUser[]; params?: Record<string, string> } = {},
): Promise<RunningConsole> {
  const data = tempDir('uiot-e2e-');
  await seed(data.dir, options.users ?? [], options.params ?? {});
  const env = {
    PORT: String(await freePort()),
    MQTT_PORT: String(await freePort()),
    MQTT_WS_PORT: String(await freePort()),
    DATA_DIR: data.dir,
  };
  const server = spawnServer(env);
  try {
    await waitReady(server);
  } catch (error) {
    server.child.kill('SIGKILL');
    data.remove();
    throw error;
  }
  return {
    url: server.url,
    server,
    stop: async () => {
      server.child.kill('SIGTERM');
      await server.exited;
      data.remove();
    },
  };
}
