import path from 'node:path';
import { meetsPasswordRule } from '@uiot/contracts';
import { loadConfig } from '../config.ts';
import { openPglite, openPostgres } from '../db/client.ts';
import { generatePassword } from '../lib/password-hash.ts';
import { resetAdminPassword } from '../modules/auth/index.ts';

/**
 * `npm run admin:reset-password [-- NEW_PASSWORD]`: the only way to reset the built-in admin's password.
 * With the embedded database, stop the server first (PGlite allows one process at a time).
 */
async function run(): Promise<void> {
  const config = loadConfig();
  const given = process.argv[2];
  if (given && !meetsPasswordRule(given)) {
    process.stderr.write(
      'The password needs at least 8 characters with upper case, lower case and digits.\n',
    );
    process.exit(1);
  }
  const password = given ?? generatePassword();
  const database = config.databaseUrl
    ? await openPostgres(config.databaseUrl, 1)
    : await openPglite(path.join(config.dataDir, 'db'));
  try {
    await database.migrate();
    await resetAdminPassword(database.db, password);
  } finally {
    await database.close();
  }
  process.stdout.write(
    given ? 'The admin password was reset.\n' : `The admin password was reset to:\n\n    ${password}\n\n`,
  );
}

run().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
