/**
 * Publishes processed events to the console topics (ARCHITECTURE §5, docs/realtime.md): `ConsoleEvent` JSON on
 * `/UIOT/{stationId}/{kind}`, QoS 0, never retained. Changes are collected per station and kind; the first
 * after a quiet spell goes at once, later ones wait for the end of a short window and go together, so a
 * busy station gets at most one message per kind and window. Changes are states, so within a window a
 * device's (or command's) later change is merged into its earlier one. A window also lasts as long as its
 * bytes take at the byte rate allowed, so that a broker and a browser are never sent more than they take.
 * The events are live-only: while the bus is down they are dropped (the console refetches when it
 * reconnects), and nothing here blocks or throws into the code that reports the changes.
 */
import {
  type AlarmChange,
  type CommandChange,
  type ConsoleEventKind,
  consoleEventTopic,
  type OperationChange,
  operationChangeSupersedes,
  type RuntimeChange,
} from '@uiot/contracts';
import { errorMessage, LogThrottle, type ModuleLogger } from '../../lib/module-logger.ts';

/** What the publisher needs of the bus (BusClient is one). */
export interface ConsoleEventTransport {
  readonly connected: boolean;
  publish(topic: string, payload: string, options: { qos: 0; retain: false }): Promise<void>;
}

/** The publisher's clock and timer, replaceable in tests. */
export interface PublisherClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const SYSTEM_CLOCK: PublisherClock = {
  now: Date.now,
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface ConsoleEventPublisherOptions {
  transport: ConsoleEventTransport;
  logger: ModuleLogger;
  /** Shortest time between two messages of one station and kind (default 50 ms). */
  windowMs?: number;
  /** Most changes in one message (default 500). */
  maxChanges?: number;
  /** Largest message, in bytes of JSON (default 256 KiB; the broker takes 1 MiB packets). */
  maxBytes?: number;
  /** Most bytes a second per station and kind, as the windows stretch to keep to it (default unbounded). */
  bytesPerSecond?: number;
  clock?: PublisherClock;
}

type Change = RuntimeChange | CommandChange | AlarmChange | OperationChange;
type PublishedKind = ConsoleEventKind;

interface Pending {
  topic: string;
  kind: PublishedKind;
  /** By device (runtime) or command id, in the order first seen. */
  changes: Map<string, Change>;
  timer: unknown;
  /** The earliest time the next message of this station and kind may go (or -Infinity). */
  nextAt: number;
}

/** What a change is about: a later change of the same thing replaces or completes it. */
function subjectOf(kind: PublishedKind, change: Change): string {
  return kind === 'runtime'
    ? (change as RuntimeChange).deviceId
    : (change as Exclude<Change, RuntimeChange>).id;
}

/**
 * A later change over an earlier one of the same subject. Runtime fields a report did not carry keep their
 * value, as in the stored runtime data; the report time is the later change's own. A command, alarm or
 * operation record change is complete in itself; an operation record's final result is never replaced by a
 * stale 'sent'.
 */
export function mergeChange(kind: PublishedKind, earlier: Change, later: Change): Change {
  if (kind === 'operation') {
    return operationChangeSupersedes(earlier as OperationChange, later as OperationChange) ? later : earlier;
  }
  if (kind !== 'runtime') return later;
  const merged: RuntimeChange = { ...(earlier as RuntimeChange), ...(later as RuntimeChange) };
  // Left out of the message as JSON; a `delete` would turn the object into a slower dictionary.
  if ((later as RuntimeChange).reportTime === undefined) merged.reportTime = undefined;
  return merged;
}

/**
 * The JSON messages carrying `changes` of one kind, in order: each at most `maxChanges` changes and, unless a
 * single change is larger, at most `maxBytes` long.
 */
export function consoleEventMessages(
  kind: PublishedKind,
  changes: readonly Change[],
  maxChanges: number,
  maxBytes: number,
): string[] {
  const head = `{"kind":${JSON.stringify(kind)},"changes":[`;
  const tail = ']}';
  const messages: string[] = [];
  let parts: string[] = [];
  let size = head.length + tail.length;
  for (const change of changes) {
    const part = JSON.stringify(change);
    const partBytes = Buffer.byteLength(part);
    if (parts.length > 0 && (parts.length >= maxChanges || size + 1 + partBytes > maxBytes)) {
      messages.push(head + parts.join(',') + tail);
      parts = [];
      size = head.length + tail.length;
    }
    size += partBytes + (parts.length > 0 ? 1 : 0);
    parts.push(part);
  }
  if (parts.length > 0) messages.push(head + parts.join(',') + tail);
  return messages;
}

export class ConsoleEventPublisher {
  private readonly transport: ConsoleEventTransport;
  private readonly logger: ModuleLogger;
  private readonly windowMs: number;
  private readonly maxChanges: number;
  private readonly maxBytes: number;
  private readonly bytesPerSecond: number;
  private readonly clock: PublisherClock;
  private readonly pending = new Map<string, Pending>();
  private closed = false;
  private readonly failureLog: LogThrottle;

  constructor(options: ConsoleEventPublisherOptions) {
    this.transport = options.transport;
    this.logger = options.logger;
    this.windowMs = Math.max(0, options.windowMs ?? 50);
    this.maxChanges = Math.max(1, options.maxChanges ?? 500);
    this.maxBytes = Math.max(1024, options.maxBytes ?? 256 * 1024);
    this.bytesPerSecond = options.bytesPerSecond ?? Number.POSITIVE_INFINITY;
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.failureLog = new LogThrottle(() => this.clock.now());
  }

  runtime(stationId: string, changes: readonly RuntimeChange[]): void {
    this.add(stationId, 'runtime', changes);
  }

  commands(stationId: string, changes: readonly CommandChange[]): void {
    this.add(stationId, 'command', changes);
  }

  alarms(stationId: string, changes: readonly AlarmChange[]): void {
    this.add(stationId, 'alarm', changes);
  }

  operations(stationId: string, changes: readonly OperationChange[]): void {
    this.add(stationId, 'operation', changes);
  }

  /** Publishes what is collected (if the bus is up) and takes no more changes. */
  close(): void {
    if (this.closed) return;
    for (const entry of this.pending.values()) {
      if (entry.timer !== null) this.clock.clearTimeout(entry.timer);
      entry.timer = null;
      this.flush(entry);
    }
    this.closed = true;
    this.pending.clear();
  }

  private add(stationId: string, kind: PublishedKind, changes: readonly Change[]): void {
    if (this.closed || changes.length === 0) return;
    // Live-only: what happens while the bus is down is not kept for later.
    if (!this.transport.connected) return;
    const key = `${kind}\u0000${stationId}`;
    let entry = this.pending.get(key);
    if (!entry) {
      entry = {
        topic: consoleEventTopic(stationId, kind),
        kind,
        changes: new Map(),
        timer: null,
        nextAt: Number.NEGATIVE_INFINITY,
      };
      this.pending.set(key, entry);
    }
    for (const change of changes) {
      const subject = subjectOf(kind, change);
      const earlier = entry.changes.get(subject);
      entry.changes.set(subject, earlier ? mergeChange(kind, earlier, change) : change);
    }
    if (entry.timer !== null) return;
    const wait = entry.nextAt - this.clock.now();
    if (wait <= 0) {
      this.flush(entry);
      return;
    }
    const due = entry;
    due.timer = this.clock.setTimeout(() => {
      due.timer = null;
      this.flush(due);
    }, wait);
  }

  private flush(entry: Pending): void {
    const changes = [...entry.changes.values()];
    entry.changes.clear();
    const now = this.clock.now();
    entry.nextAt = now + this.windowMs;
    if (changes.length === 0 || !this.transport.connected) return;
    let messages: string[];
    try {
      messages = consoleEventMessages(entry.kind, changes, this.maxChanges, this.maxBytes);
    } catch (error) {
      this.failed(entry.topic, error);
      return;
    }
    let bytes = 0;
    for (const message of messages) bytes += Buffer.byteLength(message);
    entry.nextAt = now + Math.max(this.windowMs, (bytes * 1000) / this.bytesPerSecond);
    for (const message of messages) {
      try {
        this.transport
          .publish(entry.topic, message, { qos: 0, retain: false })
          .catch((error: unknown) => this.failed(entry.topic, error));
      } catch (error) {
        this.failed(entry.topic, error);
      }
    }
  }

  /** Logs a failed publish at most every 10 s; the events themselves are gone (live-only). */
  private failed(topic: string, error: unknown): void {
    if (this.failureLog.allows()) {
      this.logger.warn({ topic, error: errorMessage(error) }, 'console event not published');
    }
  }
}
