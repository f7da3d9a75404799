/**
 * With an external Mosquitto and MQTT_DEVICE_AUTH=dynsec, the server keeps the broker's accounts: devices'
 * in step with the credentials it issues and withdraws, browsers' one per session (docs/scale-out.md).
 */
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { BusClient } from '../infra/mqtt/bus-client.ts';
import { MosquittoDynsecAccess } from '../infra/mqtt/dynsec.ts';
import { startPeriodicJobs } from '../lib/periodic-jobs.ts';
import { DEFAULT_STATION } from '../lib/station.ts';
import { ConsoleAccounts, endedSessionsOf, openSessionsOf } from '../modules/realtime/index.ts';
import type { Services } from '../services.ts';
import { StartupError } from './storage.ts';

/** How often console accounts of sessions ended by an expiry are removed from the broker. */
const CONSOLE_ACCOUNT_SWEEP_MS = 10 * 60_000;

async function administerDeviceAccounts(
  bus: BusClient,
  config: Config,
  log: Logger,
  chirpstackPassword: string | undefined,
): Promise<MosquittoDynsecAccess> {
  const logger = log.child({ module: 'dynsec' });
  const serverUsername = decodeURIComponent(new URL(config.mqttUrl!).username) || undefined;
  const access = new MosquittoDynsecAccess(bus, { logger, ...(serverUsername ? { serverUsername } : {}) });
  try {
    await access.prepare();
    if (chirpstackPassword) await access.grantChirpstack(chirpstackPassword);
  } catch (error) {
    throw new StartupError(
      `MQTT_URL: cannot administer device accounts on the broker (${(error as Error).message}); ` +
        "load Mosquitto's dynamic security plugin and give the server an admin account, or set MQTT_DEVICE_AUTH=broker",
    );
  }
  return access;
}

/** Browser accounts, those of sessions ended by an expiry swept. Returns them and what stops the sweep. */
function administerConsoleAccounts(
  access: MosquittoDynsecAccess,
  database: Database,
  services: Services,
  log: Logger,
): { accounts: ConsoleAccounts; stop: () => Promise<void> } {
  const logger = log.child({ module: 'console-accounts' });
  const accounts = new ConsoleAccounts({
    access,
    stationId: DEFAULT_STATION.id,
    sessionStands: (tokenHash) => services.sessions.stands(tokenHash),
    permissionsOf: async (tokenHash) => (await services.sessions.userOf(tokenHash))?.permissions ?? null,
    endedSessionsOf: (staffId) => endedSessionsOf(database.db, staffId),
    openSessionsOf: (staffId) => openSessionsOf(database.db, staffId),
    boardStands: (tokenHash) => services.alarms.board.stands(tokenHash),
    logger,
  });
  const stopSweep = startPeriodicJobs(
    [
      {
        name: 'console-account-sweep',
        intervalMs: CONSOLE_ACCOUNT_SWEEP_MS,
        run: () => accounts.sweep(),
        atStart: true,
      },
    ],
    logger,
    'console account sweep failed',
  );
  return { accounts, stop: stopSweep };
}

export interface BrokerAccounts {
  /** Devices' accounts, in step with their credentials (the iot module follows them). */
  devices: MosquittoDynsecAccess;
  /** Browsers' accounts, one per session (the realtime module follows sessions). */
  consoles: ConsoleAccounts;
  stop(): Promise<void>;
}

/**
 * Without accounts kept by the server, the broker asks about browsers (embedded) or the operator's broker
 * checks them itself (MQTT_DEVICE_AUTH=broker): they sign in with their staff id. Null then.
 */
export async function administerBrokerAccounts(options: {
  bus: BusClient;
  embedded: boolean;
  config: Config;
  database: Database;
  services: Services;
  chirpstackPassword: string | undefined;
  log: Logger;
}): Promise<BrokerAccounts | null> {
  const { config, services, log } = options;
  if (options.embedded || config.mqttDeviceAuth !== 'dynsec') return null;
  const devices = await administerDeviceAccounts(options.bus, config, log, options.chirpstackPassword);
  const consoles = administerConsoleAccounts(devices, options.database, services, log);
  return { devices, consoles: consoles.accounts, stop: consoles.stop };
}
