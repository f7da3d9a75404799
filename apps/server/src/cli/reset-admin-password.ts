import path from 'node:path';
import { FEATURE_FLAGS, passwordIssueKeys, translateValidation } from '@uiot/contracts';
import { loadConfig } from '../config.ts';
import { openPglite, openPostgres } from '../db/client.ts';
import { generatePassword } from '../lib/password-hash.ts';
import { resetAdminPassword } from '../modules/auth/index.ts';
import { ParamService } from '../modules/params/index.ts';

const STRONG_PASSWORD = 'StrongPassword';

/**
 * `npm run admin:reset-password [-- NEW_PASSWORD]`: the only way to reset the built-in admin's password.
 * With the embedded database, stop the server first (PGlite allows one process at a time). A chosen
 * password meets the rule of every chosen password (StrongPassword, as the console's).
 */
async function run(): Promise<void> {
  const config = loadConfig();
  const given = process.argv[2];
  const password = given ?? generatePassword();
  const database = config.databaseUrl
    ? await openPostgres(config.databaseUrl, 1)
    : await openPglite(path.join(config.dataDir, 'db'));
  try {
    await database.migrate();
    if (given) {
      const stored = await new ParamService(database.db).getValues([STRONG_PASSWORD]);
      const fallback = FEATURE_FLAGS.find((flag) => flag.name === STRONG_PASSWORD)?.defVal;
      const strong = (stored[STRONG_PASSWORD] ?? fallback) === 'true';
      const problems = passwordIssueKeys(given, { strong, userName: 'admin' });
      if (problems.length > 0) {
        const reasons = problems.map((key) => `  - ${translateValidation(key, 'en')}\n`).join('');
        process.stderr.write(`The password was not set:\n${reasons}`);
        process.exitCode = 1;
        return;
      }
    }
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
