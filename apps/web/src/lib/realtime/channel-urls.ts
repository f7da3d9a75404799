import { NOTIFICATION_SOCKET_PATH, type RuntimeConfig } from '@uiot/contracts';

export type MqttOptions = NonNullable<RuntimeConfig['mqttOptions']>;

/** The parts of the page's address the channels are built from. */
export type PageLocation = Pick<Location, 'protocol' | 'hostname' | 'host'>;

const MAX_PORT = 65_535;

function isSecure(location: PageLocation): boolean {
  return location.protocol === 'https:';
}

/**
 * The broker's WebSocket listener: the console's own host on the configured port and path; `wss` when the page
 * is served over https (a browser refuses `ws` there) or the configuration asks for SSL. Null when the
 * configured port or path cannot be used.
 */
export function mqttBrokerUrl(options: MqttOptions, location: PageLocation): string | null {
  if (!Number.isInteger(options.port) || options.port < 1 || options.port > MAX_PORT) return null;
  if (!options.path.startsWith('/')) return null;
  const scheme = isSecure(location) || options.ssl ? 'wss' : 'ws';
  return `${scheme}://${location.hostname}:${options.port}${options.path}`;
}

/** `/websocket` on the console's own origin (the token travels in the first message, never in the URL). */
export function notificationSocketUrl(location: PageLocation): string {
  return `${isSecure(location) ? 'wss' : 'ws'}://${location.host}${NOTIFICATION_SOCKET_PATH}`;
}
