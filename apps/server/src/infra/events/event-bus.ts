/**
 * The server's domain events: one in-process bus on which modules publish what happened and subscribe to what
 * others did, instead of calling each other's listener registries (docs/architecture.md lists the events).
 *
 * - Events are typed: a module declares its events by adding them to `DomainEvents` (declaration merging,
 *   in the module's `events.ts`), so a publisher and its subscribers agree on the payload.
 * - Handlers run in the order they subscribed, events in the order they were published.
 * - Handlers run after commit: what is published inside `bus.transaction(...)` is held until the
 *   transaction commits and dropped when it rolls back; outside a transaction it is delivered at once.
 * - A handler that throws (or whose promise rejects) is logged and passed over: the publisher's work stands
 *   and the other handlers still run.
 * - An event declared shared (`declareShared`) also travels to the other instances through the event channel
 *   (PostgreSQL LISTEN/NOTIFY, see event-channel.ts), where it is delivered to their handlers.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { errorMessage, LogThrottle, type ModuleLogger, SILENT_LOGGER } from '../../lib/module-logger.ts';
import type { EventChannel } from './event-channel.ts';

/**
 * Every domain event by name, with its payload. Empty here: each module adds its own events with
 * `declare module '../../infra/events/event-bus.ts' { interface DomainEvents { 'report.stored': … } }`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in the modules
export interface DomainEvents {}

export type EventName = keyof DomainEvents & string;
export type EventHandler<N extends EventName> = (payload: DomainEvents[N]) => void | Promise<void>;

interface Subscription {
  name: string;
  /** Who subscribed, for the log when the handler fails. */
  subscriber: string;
  handler: (payload: unknown) => void | Promise<void>;
  /** A handler on a hot path (every ingest batch) that keeps failing is logged once per interval. */
  failures: LogThrottle;
}

interface Pending {
  name: string;
  payload: unknown;
}

/** What shared events carry between instances: the event and the instance that published it. */
interface Envelope {
  origin: string;
  name: string;
  payload: unknown;
}

/** One unsubscription for several (a module that reacts to a few events at once). */
export function unsubscribeAll(stops: ReadonlyArray<() => void>): () => void {
  return () => {
    for (const stop of stops) stop();
  };
}

export class EventBus {
  private readonly subscriptions: Subscription[] = [];
  /** Events published inside the current transaction, delivered once it commits. */
  private readonly scope = new AsyncLocalStorage<Pending[]>();
  private readonly shared = new Set<string>();
  private channel: EventChannel | null = null;
  /** Names this instance in the envelopes of shared events, so that it skips its own. */
  readonly origin = randomUUID();

  constructor(private readonly logger: ModuleLogger = SILENT_LOGGER) {}

  /** Calls `handler` with every `name` event from now on; returns the unsubscription. */
  subscribe<N extends EventName>(name: N, subscriber: string, handler: EventHandler<N>): () => void {
    const subscription: Subscription = {
      name,
      subscriber,
      handler: handler as Subscription['handler'],
      failures: new LogThrottle(),
    };
    this.subscriptions.push(subscription);
    return () => {
      const at = this.subscriptions.indexOf(subscription);
      if (at >= 0) this.subscriptions.splice(at, 1);
    };
  }

  /**
   * Announces an event: inside `transaction(...)` once it commits (never if it rolls back), otherwise at
   * once. Handlers' failures are logged, never thrown to the publisher.
   */
  publish<N extends EventName>(name: N, payload: DomainEvents[N]): void {
    const pending = this.scope.getStore();
    if (pending) pending.push({ name, payload });
    else this.deliver(name, payload, true);
  }

  /**
   * Announces an event that is already committed (heard from the database's own notices), at once even
   * inside a unit of work, and to this instance only.
   */
  publishCommitted<N extends EventName>(name: N, payload: DomainEvents[N]): void {
    this.deliver(name, payload, false);
  }

  /**
   * Runs `work` in a transaction of `db`; the events it publishes are delivered after the commit, in the
   * order published, and dropped if it throws.
   */
  async transaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
    return this.afterCommit(() => db.transaction((tx) => work(tx as unknown as Db)));
  }

  /**
   * Holds the events `work` publishes until it resolves (then delivers them) or rejects (then drops them):
   * for a unit of work whose transaction is opened elsewhere (a batch writer, a nested service).
   */
  async afterCommit<T>(work: () => Promise<T>): Promise<T> {
    const outer = this.scope.getStore();
    // Nested: the outermost unit decides.
    if (outer) return work();
    const pending: Pending[] = [];
    const result = await this.scope.run(pending, work);
    for (const event of pending) this.deliver(event.name, event.payload, true);
    return result;
  }

  /** Marks events that the other instances receive too (their payload must be JSON of < 7.9 KB). */
  declareShared(...names: EventName[]): void {
    for (const name of names) this.shared.add(name);
  }

  /** Whether any event is declared shared (else there is nothing to carry between instances). */
  get sharesEvents(): boolean {
    return this.shared.size > 0;
  }

  /**
   * Carries shared events between instances through `channel` from now on: sends this instance's and
   * delivers the others'. Returns the stop (which closes the channel).
   */
  connect(channel: EventChannel): () => Promise<void> {
    this.channel = channel;
    channel.receive((message) => {
      let envelope: Envelope;
      try {
        envelope = JSON.parse(message) as Envelope;
      } catch {
        return;
      }
      if (envelope.origin === this.origin || !this.shared.has(envelope.name)) return;
      this.deliver(envelope.name, envelope.payload, false);
    });
    return async () => {
      if (this.channel === channel) this.channel = null;
      await channel.close();
    };
  }

  private deliver(name: string, payload: unknown, local: boolean): void {
    for (const subscription of [...this.subscriptions]) {
      if (subscription.name !== name) continue;
      try {
        const result = subscription.handler(payload);
        if (result && typeof result.then === 'function') {
          result.then(undefined, (error: unknown) => this.failed(subscription, error));
        }
      } catch (error) {
        this.failed(subscription, error);
      }
    }
    if (local && this.channel && this.shared.has(name)) {
      const envelope: Envelope = { origin: this.origin, name, payload };
      this.channel
        .send(JSON.stringify(envelope))
        .catch((error: unknown) =>
          this.logger.error(
            { event: name, error: errorMessage(error) },
            'event not sent to the other instances',
          ),
        );
    }
  }

  private failed(subscription: Subscription, error: unknown): void {
    if (!subscription.failures.allows()) return;
    this.logger.error(
      { event: subscription.name, subscriber: subscription.subscriber, error: errorMessage(error) },
      'an event handler failed',
    );
  }
}
