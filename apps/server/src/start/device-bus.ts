/**
 * The device bus of a starting system: the embedded MQTT broker (unless MQTT_URL names one), the server's
 * client on it, and the paces of console events through either.
 */
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { type BusClient, connectBus } from '../infra/mqtt/bus-client.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from '../infra/mqtt/embedded-broker.ts';
import { DEFAULT_STATION } from '../lib/station.ts';
import { isBoardUsername } from '../modules/alarms/index.ts';
import { brokerAuthorizer, consoleRechecker } from '../modules/iot/index.ts';
import type { Services } from '../services.ts';
import type { TlsMaterial } from '../tls-files.ts';

/** Console events through the embedded broker: it passes large messages on as fast as small ones. */
const EMBEDDED_CONSOLE_PACE = { maxBytes: 256 * 1024, bytesPerSecond: 4_000_000 };
/**
 * Console events through an external broker. Mosquitto 2.0's WebSocket listener (with Debian's
 * libwebsockets) sends a message over ~4 KB to a browser one piece per pass of its loop: measured here, a
 * 32 KB message every 50 ms arrived seconds late and fell further behind, while 4 KB messages took
 * 2 MB/s in stride when the broker had nothing else to do (docs/scale-out.md).
 */
const EXTERNAL_CONSOLE_PACE = { maxBytes: 4_000, bytesPerSecond: 1_500_000 };

export function consolePaceOf(broker: EmbeddedBroker | null) {
  return broker ? EMBEDDED_CONSOLE_PACE : EXTERNAL_CONSOLE_PACE;
}

/** A stable client id per host and port, so the external broker keeps this instance's session. */
function externalClientId(config: Config): string {
  return `uiot-server-${hostname()
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .slice(0, 40)}-${config.port}`;
}

/**
 * Without MQTT_URL: the embedded broker, asking the server who may connect (the realtime module makes
 * sessions that end or change reach its console connections). Returns null when an external broker is
 * configured.
 */
export async function startBrokerOf(options: {
  config: Config;
  services: Services;
  tls: TlsMaterial | undefined;
  chirpstackPassword: string | undefined;
  log: Logger;
}): Promise<EmbeddedBroker | null> {
  const { config, services, tls } = options;
  if (config.mqttUrl) return null;
  const staffAuthorize = brokerAuthorizer({
    credentials: services.deviceCredentials,
    resolveSession: (token) => services.sessions.resolve(token),
    stationId: DEFAULT_STATION.id,
    chirpstackPassword: options.chirpstackPassword,
  });
  const staffRecheck = consoleRechecker({
    userOf: (tokenHash) => services.sessions.userOf(tokenHash),
    stationId: DEFAULT_STATION.id,
  });
  const { board } = services.alarms;
  return startEmbeddedBroker({
    port: config.mqttPort,
    wsPort: config.mqttWsPort,
    ...(tls ? { tls: { cert: tls.cert, key: tls.key } } : {}),
    logger: options.log.child({ module: 'broker' }),
    // A control-room board signs in over WebSocket with its link's username and its display token.
    authorize: (request) =>
      request.transport === 'ws' && isBoardUsername(request.username)
        ? board.brokerIdentity(request.username, request.password)
        : staffAuthorize(request),
    recheckConsole: (connection) =>
      isBoardUsername(connection.username)
        ? board.recheck(connection.username, connection.session)
        : staffRecheck(connection),
  });
}

/** The server's client on the device bus (the embedded broker, or MQTT_URL's). */
export function connectDeviceBus(
  config: Config,
  broker: EmbeddedBroker | null,
  log: Logger,
): Promise<BusClient> {
  return connectBus({
    url: broker?.url ?? config.mqttUrl!,
    ...(broker ? broker.internalCredentials : {}),
    // An external broker keeps this server's session (and the QoS 1 reports queued for it) across
    // reconnections. The embedded aedes does not get one: its persistent sessions store every in-flight
    // message and slow down as a backlog grows until it crashes (measured, bench/ingest); it starts empty
    // with its process anyway.
    clientId: broker ? `uiot-server-${process.pid}-${Date.now().toString(36)}` : externalClientId(config),
    clean: !!broker,
    // aedes has no shared subscriptions; an external broker shares device topics between instances.
    sharedSubscriptions: !broker && config.mqttSharedSubscription,
    // Reports are acknowledged once committed; up to this many are read on meanwhile.
    ackAfterHandlers: true,
    maxInFlightHandlers: 20_000,
    logger: log.child({ module: 'bus' }),
  });
}
