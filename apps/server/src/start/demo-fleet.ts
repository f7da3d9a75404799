import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { errorMessage } from '../lib/module-logger.ts';
import { DEFAULT_STATION } from '../lib/station.ts';
import { DEMO_HEARTBEAT_SECONDS, prepareDemoStation } from '../modules/iot/index.ts';
import type { Services } from '../services.ts';

/** DEMO=1: the demo station's devices, driven by simulated locks in this process. */
export async function startDemoFleet(options: {
  database: Database;
  services: Services;
  mqttUrl: string;
  chirpstackPassword: string | undefined;
  tcpDirectPort: number;
  log: Logger;
}): Promise<() => Promise<void>> {
  const { services, log } = options;
  // Its locks are IoT locks: while SupportIoT is off they are not managed, so not registered nor simulated.
  if (!(await services.params.getBoolean('SupportIoT'))) {
    log.warn('SupportIoT is off: the demo station is not simulated');
    return async () => {};
  }
  const credentials = await prepareDemoStation(
    options.database.db,
    services.devices.ledger,
    DEFAULT_STATION.id,
  );
  const { startFleet } = await import('@uiot/simulator');
  const fleet = startFleet({
    devices: credentials.map((c) => ({
      stationId: c.stationId,
      code: c.code,
      secret: c.secret,
      protocol: c.protocol,
      ...(c.devEui ? { devEui: c.devEui } : {}),
    })),
    mqttUrl: options.mqttUrl,
    ...(options.chirpstackPassword
      ? {
          chirpstack: { username: 'chirpstack', password: options.chirpstackPassword, applicationId: 'demo' },
        }
      : {}),
    tcp: { host: '127.0.0.1', port: options.tcpDirectPort },
    mode: { kind: 'behaviour', heartbeatSeconds: DEMO_HEARTBEAT_SECONDS },
    logger: log,
  });
  fleet.ready.then(
    () => log.info({ devices: credentials.length }, 'demo station running with simulated locks'),
    (error: unknown) => log.error({ error: errorMessage(error) }, 'demo locks could not connect'),
  );
  return () => fleet.stop();
}
