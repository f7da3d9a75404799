import type { RealtimeStatus } from './realtime-status.ts';
import type { Scheduler } from './scheduler.ts';
import { SubscriptionKeeper } from './subscription-keeper.ts';

/** What a broker connection reports; events come only after the connector's promise resolved. */
export interface BrokerConnectionEvents {
  /** The broker accepted the connection: the first one and every reconnection. */
  connected(): void;
  /** The connection dropped or an attempt failed; the client reconnects by itself. */
  closed(): void;
  message(payload: Uint8Array): void;
}

export interface BrokerConnection {
  /** Subscribes at QoS 0; `done(true)` once granted, `done(false)` when refused or lost. */
  subscribe(topic: string, done: (granted: boolean) => void): void;
  /** Closes the connection for good. */
  end(): void;
}

/** Opens a self-reconnecting broker connection; rejects when the client cannot be created at all. */
export type BrokerConnector = (events: BrokerConnectionEvents) => Promise<BrokerConnection>;

export interface MqttChannelOptions {
  connect: BrokerConnector;
  /** The topic filter of the station's console topics. */
  topic: string;
  subscribeTimeoutMs: number;
  resubscribeMs: number;
  scheduler: Scheduler;
  onStatus(status: RealtimeStatus): void;
  /** The subscription is (again) in place: what was published while it was not has been missed. */
  onSubscribed(): void;
  onMessage(payload: Uint8Array): void;
  /** The client could not be created (its library did not load, or it refused the options). */
  onInitFailed(error: unknown): void;
}

/**
 * The console's MQTT channel (spec §4 Realtime): connects, subscribes to the station's console topics on
 * every connection, and reports its status. Reconnection is the client's; resubscription is the channel's.
 */
export class MqttChannel {
  /** Rises on every start and stop: events of an earlier run are ignored. */
  private run = 0;
  private connection: BrokerConnection | null = null;
  private readonly keeper: SubscriptionKeeper;

  constructor(private readonly options: MqttChannelOptions) {
    this.keeper = new SubscriptionKeeper({
      subscribe: (done) => {
        if (this.connection) this.connection.subscribe(options.topic, done);
        else done(false);
      },
      timeoutMs: options.subscribeTimeoutMs,
      retryMs: options.resubscribeMs,
      scheduler: options.scheduler,
      onSubscribed: () => {
        options.onStatus('live');
        options.onSubscribed();
      },
    });
  }

  start(): void {
    this.stop();
    const run = this.run;
    const current = () => run === this.run;
    this.options.onStatus('connecting');
    this.options
      .connect({
        connected: () => {
          if (current()) this.keeper.start();
        },
        closed: () => {
          if (!current()) return;
          this.keeper.stop();
          this.options.onStatus('reconnecting');
        },
        message: (payload) => {
          if (current()) this.options.onMessage(payload);
        },
      })
      .then(
        (connection) => {
          if (current()) this.connection = connection;
          else connection.end();
        },
        (error: unknown) => {
          if (!current()) return;
          this.stop();
          this.options.onInitFailed(error);
        },
      );
  }

  stop(): void {
    this.run += 1;
    this.keeper.stop();
    this.connection?.end();
    this.connection = null;
    this.options.onStatus('off');
  }
}
