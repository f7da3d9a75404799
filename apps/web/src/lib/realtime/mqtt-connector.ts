import type { MqttOptions } from './channel-urls.ts';
import type { BrokerConnector } from './mqtt-channel.ts';
import { browserScheduler, type Scheduler } from './scheduler.ts';

/**
 * A browser signs in to the broker with the username the server gives it and its session token as password
 * (ARCHITECTURE §4): its staff id on the embedded broker, its own account on an external one.
 */
export interface BrokerCredentials {
  token: string;
  /** Asks the server for the username; where the server keeps broker accounts, it (re)creates this one. */
  login(): Promise<string>;
}

/** Code 128 in a SUBACK: the broker refused that subscription. */
const SUBSCRIPTION_REFUSED = 128;
/** CONNACK return codes (MQTT 3.1.1) of a refused sign-in: bad username or password, not authorised. */
const SIGN_IN_REFUSED = new Set([4, 5]);

/** The return code of a connection the broker refused in its CONNACK (1–5), or null for any other error. */
function connackRefusal(error: unknown): number | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' && code >= 1 && code <= 5 ? code : null;
}

/**
 * Opens the broker connection with mqtt.js, loaded only now so that the sign-in page and the console's first
 * screen do not carry it. The username is asked for before the first attempt, and again after the broker
 * refused the sign-in (its account may have been removed meanwhile, e.g. swept after an expiry); every other
 * loss is retried by the client itself.
 */
export function mqttConnector(
  url: string,
  options: MqttOptions,
  credentials: BrokerCredentials,
  scheduler: Scheduler = browserScheduler,
): BrokerConnector {
  return async (events) => {
    const { default: mqtt } = await import('mqtt');
    const client = mqtt.connect(url, {
      protocolVersion: 4,
      password: credentials.token,
      keepalive: options.keepalive,
      reconnectPeriod: options.reconnectPeriod,
      connectTimeout: options.connectTimeout,
      clean: options.clean,
      // The channel subscribes on every connection itself and watches for the answer.
      resubscribe: false,
      // The first attempt waits for the username.
      manualConnect: true,
      // A refused connection is retried below, after asking for the username again when it was the sign-in.
      reconnectOnConnackError: false,
    });
    let ended = false;
    let retry: unknown = null;
    let attempted = false;
    const later = (step: () => void) => {
      retry = scheduler.setTimeout(() => {
        retry = null;
        if (!ended) step();
      }, options.reconnectPeriod);
    };
    const attempt = () => {
      if (attempted) client.reconnect();
      else client.connect();
      attempted = true;
    };
    const signIn = () => {
      credentials.login().then(
        (username) => {
          if (ended) return;
          client.options.username = username;
          attempt();
        },
        // The server is unreachable (or restarting): asked again a little later.
        () => {
          if (ended) return;
          events.closed();
          later(signIn);
        },
      );
    };
    client.on('connect', () => events.connected());
    client.on('close', () => events.closed());
    client.on('message', (_topic, payload) => events.message(payload));
    // Every error also closes the connection, which is reported and retried; an emitter without an 'error'
    // listener would throw instead. The error is not logged: it may quote what the broker was sent.
    client.on('error', (error) => {
      const refusal = connackRefusal(error);
      if (refusal === null || ended || retry !== null) return;
      later(SIGN_IN_REFUSED.has(refusal) ? signIn : attempt);
    });
    signIn();
    return {
      subscribe(topic, done) {
        client.subscribe(topic, { qos: 0 }, (error, granted) => {
          done(!error && (granted ?? []).every((grant) => grant.qos !== SUBSCRIPTION_REFUSED));
        });
      },
      end() {
        ended = true;
        if (retry !== null) scheduler.clearTimeout(retry);
        retry = null;
        // A client that never connected has nothing to close (and mqtt.js would fail on its missing stream).
        if (attempted) client.end(true);
      },
    };
  };
}
