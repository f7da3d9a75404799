import { ConfigError, loadConfig } from './config.ts';
import { createLogger, logOutput } from './logger.ts';
import { StartupError, startSystem } from './system.ts';

/** Entry of `npm start`: one process serving the API, the console and the embedded broker. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const line of error.problems) process.stderr.write(`${line}\n`);
      process.exit(1);
    }
    throw error;
  }
  // `npm start` passes its terminal on: a person reads the lines there, a program reads JSON elsewhere.
  const log = createLogger(config.logLevel, logOutput(config.logFormat, process.stdout.isTTY === true));
  const system = await startSystem(config, log, (password) => {
    // Shown once, on the terminal only: it is not written to the log.
    process.stdout.write(
      `\nThe built-in administrator "admin" was created with the password:\n\n    ${password}\n\n` +
        'Keep it safe; it is not shown again. Reset it with: npm run admin:reset-password\n\n',
    );
  }).catch((error: unknown) => {
    if (error instanceof StartupError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  });
  log.info(
    {
      url: `${config.tls ? 'https' : 'http'}://localhost:${config.port}`,
      database: system.database.kind,
      mqtt: config.mqttUrl ? 'external' : `embedded on ${config.mqttPort} and ws ${config.mqttWsPort}`,
    },
    'UIOT Lock Console is running',
  );
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    system.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
