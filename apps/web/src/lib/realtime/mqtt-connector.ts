import type { MqttOptions } from './channel-urls.ts';
import type { BrokerConnector } from './mqtt-channel.ts';

/** A browser signs in to the broker with its staff id and its session token (ARCHITECTURE §4). */
export interface BrokerCredentials {
  staffId: string;
  token: string;
}

/** Code 128 in a SUBACK: the broker refused that subscription. */
const SUBSCRIPTION_REFUSED = 128;

/**
 * Opens the broker connection with mqtt.js, loaded only now so that the sign-in page and the console's first
 * screen do not carry it.
 */
export function mqttConnector(
  url: string,
  options: MqttOptions,
  credentials: BrokerCredentials,
): BrokerConnector {
  return async (events) => {
    const { default: mqtt } = await import('mqtt');
    const client = mqtt.connect(url, {
      protocolVersion: 4,
      username: credentials.staffId,
      password: credentials.token,
      keepalive: options.keepalive,
      reconnectPeriod: options.reconnectPeriod,
      connectTimeout: options.connectTimeout,
      clean: options.clean,
      // The channel subscribes on every connection itself and watches for the answer.
      resubscribe: false,
      // A refused connection (e.g. while the server restarts) is retried like a lost one.
      reconnectOnConnackError: true,
    });
    client.on('connect', () => events.connected());
    client.on('close', () => events.closed());
    client.on('message', (_topic, payload) => events.message(payload));
    // Every error also closes the connection, which is reported and retried; an emitter without an 'error'
    // listener would throw instead. The error is not logged: it may quote what the broker was sent.
    client.on('error', () => undefined);
    return {
      subscribe(topic, done) {
        client.subscribe(topic, { qos: 0 }, (error, granted) => {
          done(!error && (granted ?? []).every((grant) => grant.qos !== SUBSCRIPTION_REFUSED));
        });
      },
      end() {
        client.end(true);
      },
    };
  };
}
