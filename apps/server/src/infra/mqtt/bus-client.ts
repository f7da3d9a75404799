/**
 * The server's single MQTT client (ARCHITECTURE §1, §5): the same code talks to the embedded broker and to an
 * external one (Mosquitto, EMQX). MQTT 3.1.1, reconnecting, with bounded queues in both directions.
 */

import { connect, type IClientOptions, type IPublishPacket, type MqttClient } from 'mqtt';
import { errorMessage, type ModuleLogger } from '../../lib/module-logger.ts';
import { isValidTopicFilter, isValidTopicName, parseSharedFilter, topicMatcher } from './topic-acl.ts';

export type QoS = 0 | 1 | 2;

export interface BusClientOptions {
  /** `mqtt://host:port`, `mqtts://`, `ws://` or `wss://`. */
  url: string;
  username?: string;
  password?: string;
  clientId: string;
  logger: ModuleLogger;
  /** Clean session (default true). With false the broker keeps QoS 1 messages for this client id while it is away. */
  clean?: boolean;
  /** How long `connectBus` waits for the first connection (default 30000 ms). */
  connectTimeoutMs?: number;
  /** Delay between reconnection attempts (default 1000 ms). */
  reconnectPeriodMs?: number;
  /** MQTT keep-alive in seconds (default 30). */
  keepalive?: number;
  /**
   * Incoming messages whose handlers may still be running while the next one is read. At 1 (default) every
   * message is acknowledged to the broker (QoS 1 PUBACK) only after its handlers have settled, and the broker
   * is slowed down to the handlers' pace. Higher values let handlers overlap (e.g. batched writes), at the
   * price of acknowledging before they finish unless `ackAfterHandlers` is set. Either way, no unbounded
   * queue builds up here.
   */
  maxInFlightHandlers?: number;
  /**
   * With `maxInFlightHandlers` above 1: still send a QoS 1 message's PUBACK only once its handlers have all
   * resolved (a handler that rejects or throws leaves it unacknowledged, so a persistent session gets it again
   * after a reconnection), while further messages are read meanwhile. This is how ingest commits a batch
   * before the broker forgets its reports.
   */
  ackAfterHandlers?: boolean;
  /** QoS 1/2 publishes awaiting their acknowledgement (queued while disconnected included); default 10000. */
  maxPendingPublishes?: number;
  /**
   * Whether the broker supports `$share/{group}/` shared subscriptions (default true: Mosquitto, EMQX). Set it
   * to false for the embedded broker (aedes has none; a single server needs none): the prefix is then dropped
   * and `{filter}` subscribed directly, so the same subscribing code serves both profiles.
   */
  sharedSubscriptions?: boolean;
}

export interface PublishOptions {
  qos?: QoS;
  retain?: boolean;
}

/**
 * Handles a message: topic and raw payload. A returned promise is awaited (see `maxInFlightHandlers`; with
 * `ackAfterHandlers` a QoS 1 message is acknowledged once it resolves, whatever its value, and not if it
 * rejects); anything else counts as handled at once.
 */
export type BusMessageHandler = (topic: string, payload: Buffer) => unknown;

export interface BusClient {
  /** True while connected to the broker. */
  readonly connected: boolean;
  /**
   * Publishes. QoS 0 while disconnected is dropped (at most once); QoS 1/2 is queued in memory up to
   * `maxPendingPublishes` and resolves once the broker acknowledged it. Rejects with `BusBackpressureError`
   * beyond that bound, or when the client is closed.
   */
  publish(topic: string, payload: string | Buffer | Uint8Array, options?: PublishOptions): Promise<void>;
  /**
   * Subscribes `handler` to a topic filter (`+`, `#`, and `$share/{group}/{filter}` shared subscriptions, which
   * receive messages of `{filter}`). Resolves once the broker granted it (again after every reconnection),
   * rejects when the broker refuses it. Returns a function that removes this handler.
   */
  subscribe(filter: string, options: { qos: QoS }, handler: BusMessageHandler): Promise<() => Promise<void>>;
  /** Called with true on each (re)connection and false on each loss of connection; returns an unsubscribe. */
  onConnectionChange(listener: (connected: boolean) => void): () => void;
  /** Disconnects (waiting briefly for in-flight acknowledgements) and stops reconnecting; idempotent. */
  close(): Promise<void>;
}

export class BusBackpressureError extends Error {
  override name = 'BusBackpressureError';
}

interface SubscriptionEntry {
  /** The filter subscribed at the broker. */
  filter: string;
  /** Whether a message's topic matches the filter (without the `$share/{group}/` prefix). */
  matches: (topic: string) => boolean;
  qos: QoS;
  handlers: Set<BusMessageHandler>;
  /** Settles with the broker's SUBACK. */
  granted: Promise<void>;
}

const succeeded = (): boolean => true;
const FAILED: Promise<boolean> = Promise.resolve(false);
const allSucceeded = (outcomes: boolean[]): boolean => outcomes.every((ok) => ok);
/** mqtt.js logs through `debug` at every step of every packet, building its arguments even when off. */
const noLog = (): void => {};

/** The URL without its credentials (for logs, and for clients that sign in with their own). */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '(invalid url)';
  }
}

class MqttBusClient implements BusClient {
  private readonly subscriptions = new Map<string, SubscriptionEntry>();
  private readonly connectionListeners = new Set<(connected: boolean) => void>();
  private readonly maxInFlightHandlers: number;
  private readonly maxPendingPublishes: number;
  private readonly sharedSubscriptions: boolean;
  private readonly logger: ModuleLogger;
  private inFlightHandlers = 0;
  private readonly ackAfterHandlers: boolean;
  /** PUBACKs held back until the handlers of their message resolve (message id → outcome). */
  private readonly heldAcks = new Map<number, Promise<boolean>>();
  /** Counts connections, so that an acknowledgement is never sent on a later connection than its message's. */
  private connectionEpoch = 0;
  private resumeReading: (() => void) | null = null;
  private pendingPublishes = 0;
  private wasConnected = false;
  private lastErrorLogged: string | null = null;
  private closePromise: Promise<void> | null = null;

  constructor(
    private readonly client: MqttClient,
    options: BusClientOptions,
  ) {
    this.logger = options.logger;
    this.maxInFlightHandlers = Math.max(1, options.maxInFlightHandlers ?? 1);
    this.maxPendingPublishes = Math.max(1, options.maxPendingPublishes ?? 10_000);
    this.sharedSubscriptions = options.sharedSubscriptions ?? true;
    this.ackAfterHandlers = options.ackAfterHandlers ?? false;
    client.handleMessage = (packet, callback) => this.onMessage(packet, callback);
    if (this.ackAfterHandlers) this.holdAcknowledgements();
    // mqtt.js counts only acknowledgements and PINGRESP as signs of life, not the messages it receives. Under
    // a backlog the broker's PINGRESP waits behind thousands of reports while reading is held back, and the
    // client gave up the connection (and, with it, every report in flight) although data kept arriving.
    let lastSignOfLife = 0;
    client.on('packetreceive', () => {
      const now = Date.now();
      if (now - lastSignOfLife < 1_000) return;
      lastSignOfLife = now;
      client.reschedulePing(true);
    });
    client.on('connect', (connack) => {
      // mqtt.js waits for 'drain' once per packet written while the socket's buffer is full: under a backlog
      // thousands at once (Node warned of a leak past 1 000). Their number is bounded by the publishes and
      // acknowledgements in flight, which this client and ingest bound.
      client.stream.setMaxListeners(0);
      this.connectionEpoch++;
      this.lastErrorLogged = null;
      // mqtt.js subscribes again only when the broker kept no session. A broker that kept it may still have
      // lost subscriptions: Mosquitto 2.0.11 does not restore shared ones from its persistence file.
      if (this.connectionEpoch > 1 && connack.sessionPresent) this.renewSubscriptions();
      if (this.wasConnected) return;
      this.wasConnected = true;
      this.logger.info({ url: withoutCredentials(options.url), clientId: options.clientId }, 'bus connected');
      this.notify(true);
    });
    client.on('close', () => {
      if (!this.wasConnected) return;
      this.wasConnected = false;
      if (!this.closePromise)
        this.logger.warn({ url: withoutCredentials(options.url) }, 'bus connection lost; reconnecting');
      this.notify(false);
    });
    client.on('error', (error) => {
      // Logged once per streak: a broker that stays down must not fill the log every second.
      if (this.closePromise || this.lastErrorLogged === error.message) return;
      this.lastErrorLogged = error.message;
      this.logger.warn(
        { url: withoutCredentials(options.url), error: error.message },
        'bus connection error',
      );
    });
  }

  get connected(): boolean {
    return this.client.connected;
  }

  async publish(
    topic: string,
    payload: string | Buffer | Uint8Array,
    options: PublishOptions = {},
  ): Promise<void> {
    if (this.closePromise) throw new Error('bus client is closed');
    if (!isValidTopicName(topic)) throw new Error(`invalid topic for publishing: ${JSON.stringify(topic)}`);
    const qos = options.qos ?? 0;
    const body = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
    if (qos === 0) {
      if (!this.client.connected) return; // at most once: dropped while disconnected
      await this.client.publishAsync(topic, body, { qos, retain: options.retain ?? false });
      return;
    }
    if (this.pendingPublishes >= this.maxPendingPublishes) {
      throw new BusBackpressureError(
        `${this.pendingPublishes} bus messages are awaiting acknowledgement; publish to ${topic} refused`,
      );
    }
    this.pendingPublishes++;
    try {
      await this.client.publishAsync(topic, body, { qos, retain: options.retain ?? false });
    } finally {
      this.pendingPublishes--;
    }
  }

  async subscribe(
    requested: string,
    options: { qos: QoS },
    handler: BusMessageHandler,
  ): Promise<() => Promise<void>> {
    if (this.closePromise) throw new Error('bus client is closed');
    const shared = parseSharedFilter(requested);
    if (!shared || !isValidTopicFilter(shared.filter)) {
      throw new Error(`invalid topic filter: ${JSON.stringify(requested)}`);
    }
    const filter = this.sharedSubscriptions ? requested : shared.filter;
    let entry = this.subscriptions.get(filter);
    const previousQos = entry?.qos;
    if (!entry || options.qos > entry.qos) {
      const target: SubscriptionEntry = entry ?? {
        filter,
        matches: topicMatcher(shared.filter),
        qos: options.qos,
        handlers: new Set(),
        granted: Promise.resolve(),
      };
      target.qos = Math.max(target.qos, options.qos) as QoS;
      target.granted = this.client.subscribeAsync(filter, { qos: target.qos }).then(() => undefined);
      this.subscriptions.set(filter, target);
      entry = target;
    }
    const target = entry;
    target.handlers.add(handler);
    try {
      await target.granted; // also when another handler asked first and the SUBACK is still on its way
    } catch (error) {
      target.handlers.delete(handler);
      if (target.handlers.size === 0 && this.subscriptions.get(filter) === target) {
        this.subscriptions.delete(filter);
      } else if (previousQos !== undefined) {
        // an upgrade of an existing subscription failed: it stays as it was
        target.qos = previousQos;
        target.granted = Promise.resolve();
      }
      throw new Error(`subscription to ${filter} refused: ${errorMessage(error)}`);
    }
    let removed = false;
    return async () => {
      if (removed) return;
      removed = true;
      target.handlers.delete(handler);
      if (target.handlers.size > 0 || this.subscriptions.get(filter) !== target) return;
      this.subscriptions.delete(filter);
      if (!this.closePromise) await this.client.unsubscribeAsync(filter);
    };
  }

  onConnectionChange(listener: (connected: boolean) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  close(): Promise<void> {
    this.closePromise ??= (async () => {
      // Let a reader blocked on slow handlers go, so that the client can end.
      const resume = this.resumeReading;
      this.resumeReading = null;
      resume?.();
      // Give in-flight QoS 1/2 publishes a moment to be acknowledged, then disconnect.
      if (this.client.connected && Object.keys(this.client.outgoing).length > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 2_000);
          this.client.once('outgoingEmpty', () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      await this.client.endAsync(true);
      this.subscriptions.clear();
      if (this.wasConnected) {
        this.wasConnected = false;
        this.notify(false);
      }
    })();
    return this.closePromise;
  }

  private renewSubscriptions(): void {
    if (this.subscriptions.size === 0) return;
    // The object form with `resubscribe` makes mqtt.js send filters it believes are already subscribed.
    const filters: Record<string, unknown> = { resubscribe: true };
    for (const entry of this.subscriptions.values()) filters[entry.filter] = { qos: entry.qos };
    this.client.subscribe(filters as Record<string, { qos: QoS }>, (error) => {
      if (error) this.logger.error({ error: error.message }, 'subscriptions not renewed after reconnecting');
    });
  }

  private notify(connected: boolean): void {
    for (const listener of this.connectionListeners) {
      try {
        listener(connected);
      } catch (error) {
        this.logger.error({ error: errorMessage(error) }, 'bus connection listener failed');
      }
    }
  }

  /** mqtt.js hands messages over one at a time and acknowledges each when `callback` is called. */
  private onMessage(packet: IPublishPacket, callback: (error?: Error) => void): void {
    const topic = packet.topic;
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
    // Once per report on the ingest path: one handler's promise is the common case, and it is awaited
    // without an array or `Promise.all`.
    let first: Promise<boolean> | undefined;
    let more: Promise<boolean>[] | undefined;
    for (const entry of this.subscriptions.values()) {
      if (!entry.matches(topic)) continue;
      for (const handler of entry.handlers) {
        let outcome: Promise<boolean>;
        try {
          const result: unknown = handler(topic, payload);
          if (!(result instanceof Promise)) continue;
          outcome = result.then(succeeded, (error: unknown) => {
            this.handlerFailed(topic, entry.filter, error);
            return false;
          });
        } catch (error) {
          // Failed as a rejected promise would: a held PUBACK is not sent.
          this.handlerFailed(topic, entry.filter, error);
          outcome = FAILED;
        }
        if (!first) first = outcome;
        else if (!more) more = [first, outcome];
        else more.push(outcome);
      }
    }
    if (!first) {
      callback();
      return;
    }
    this.inFlightHandlers++;
    const settled = more ? Promise.all(more).then(allSucceeded) : first;
    if (this.ackAfterHandlers && packet.qos === 1 && packet.messageId !== undefined) {
      this.heldAcks.set(packet.messageId, settled);
    }
    void settled.then(this.handlersSettled);
    if (this.inFlightHandlers < this.maxInFlightHandlers || this.closePromise) callback();
    else this.resumeReading = () => callback();
  }

  /** A message's handlers have all settled: reading resumes if it waited for a free place. */
  private readonly handlersSettled = (): void => {
    this.inFlightHandlers--;
    if (this.inFlightHandlers < this.maxInFlightHandlers && this.resumeReading) {
      const resume = this.resumeReading;
      this.resumeReading = null;
      resume();
    }
  };

  /**
   * mqtt.js reads the next packet only once a message's PUBACK is written, and writes it as soon as
   * `handleMessage` calls back. To acknowledge after the handlers while reading on, the PUBACK of a held
   * message is taken out of `_sendPacket`: reading continues at once, the PUBACK follows when the handlers
   * resolved, on the same connection only (a message id of an earlier connection may name another message).
   */
  private holdAcknowledgements(): void {
    const target = this.client as unknown as {
      _sendPacket?: (
        packet: { cmd: string; messageId?: number },
        cb?: () => void,
        cbStorePut?: unknown,
        noStore?: unknown,
      ) => void;
    };
    const send = target._sendPacket;
    if (typeof send !== 'function') {
      throw new Error('this mqtt.js version cannot hold acknowledgements (no _sendPacket)');
    }
    // mqtt.js's `_sendPacket(packet, cb, cbStorePut, noStore)`, its arguments passed on as they are.
    target._sendPacket = (packet, cb, cbStorePut, noStore) => {
      const outcome = packet.cmd === 'puback' && packet.messageId !== undefined;
      const held = outcome ? this.heldAcks.get(packet.messageId!) : undefined;
      if (!held) {
        send.call(this.client, packet, cb, cbStorePut, noStore);
        return;
      }
      this.heldAcks.delete(packet.messageId!);
      const epoch = this.connectionEpoch;
      cb?.();
      void held.then((ok) => {
        if (ok && epoch === this.connectionEpoch && this.client.connected && !this.closePromise) {
          send.call(this.client, packet, undefined, cbStorePut, noStore);
        }
      });
    };
  }

  private handlerFailed(topic: string, filter: string, error: unknown): void {
    this.logger.error({ topic, filter, error: errorMessage(error) }, 'bus message handler failed');
  }
}

/**
 * Connects the server's bus client and resolves once connected. Rejects when the broker refuses the
 * credentials, or when no connection could be made within `connectTimeoutMs`; it reconnects by itself after
 * that first connection.
 */
export async function connectBus(options: BusClientOptions): Promise<BusClient> {
  const connectTimeoutMs = options.connectTimeoutMs ?? 30_000;
  const clientOptions: IClientOptions = {
    clientId: options.clientId,
    protocolVersion: 4,
    clean: options.clean ?? true,
    keepalive: options.keepalive ?? 30,
    reconnectPeriod: options.reconnectPeriodMs ?? 1_000,
    connectTimeout: Math.min(connectTimeoutMs, 30_000),
    reconnectOnConnackError: true,
    resubscribe: true,
    queueQoSZero: false,
    // `DEBUG=mqttjs*` still shows mqtt.js's own log.
    ...(process.env.DEBUG ? {} : { log: noLog }),
    ...(options.username !== undefined ? { username: options.username } : {}),
    ...(options.password !== undefined ? { password: options.password } : {}),
  };
  const client = connect(options.url, clientOptions);
  const bus = new MqttBusClient(client, options);

  await new Promise<void>((resolve, reject) => {
    let lastError: Error | null = null;
    const cleanup = () => {
      clearTimeout(timer);
      client.off('connect', onConnect);
      client.off('error', onError);
    };
    const fail = (message: string) => {
      cleanup();
      client.end(true);
      reject(new Error(message));
    };
    const onConnect = () => {
      cleanup();
      resolve();
    };
    const onError = (error: Error & { code?: unknown }) => {
      lastError = error;
      // A CONNACK refusal (bad credentials, not authorised, ...) will not fix itself by retrying.
      if (typeof error.code === 'number' && error.code >= 1 && error.code <= 5 && error.code !== 3) {
        fail(`MQTT broker at ${withoutCredentials(options.url)} refused the connection: ${error.message}`);
      }
    };
    const timer = setTimeout(() => {
      fail(
        `cannot connect to the MQTT broker at ${withoutCredentials(options.url)} within ${connectTimeoutMs} ms` +
          (lastError ? `: ${lastError.message}` : ''),
      );
    }, connectTimeoutMs);
    client.on('connect', onConnect);
    client.on('error', onError);
  });
  return bus;
}
