import type { RunState } from '@uiot/contracts';
import { type DeviceProtocol, type InboundMessage, isRecordedAgain, nulFieldOf } from '@uiot/device-protocol';
import { type BatchOutcome, type BatchStep, transactionBatch } from '../../../db/batch.ts';
import type { Db } from '../../../db/client.ts';
import { isUniqueViolationOf } from '../../../db/errors.ts';
import { rowsOf } from '../../../db/rows.ts';
import { EventBus } from '../../../infra/events/event-bus.ts';
import type { ModuleLogger } from '../../../lib/module-logger.ts';
import type { DeviceCommandRecord } from '../../commands/commands.schema.ts';
import { applyCommandAnswers, type CommandAnswer } from '../../commands/index.ts';
import type { RunStateHints } from '../run-state.ts';
import { NO_HINTS, REPORTED_ONLY, settleRunStates } from '../run-states.ts';
import { DeviceDirectory } from './device-directory.ts';
import {
  HISTORY_MESSAGE_KEY,
  type HistoryInsert,
  historyKey,
  type IngestDevice,
  insertDamageReportsQuery,
  insertHistory,
  insertHistoryQuery,
  recountDamageQuery,
  recountedDevices,
  upsertRuntime,
  upsertRuntimeQuery,
  writtenRuntime,
} from './ingest.repository.ts';
import { IngestStats, type IngestStatsSnapshot, type RejectReason } from './ingest-stats.ts';
import { type RepeatBatch, type RepeatPlan, RepeatReports } from './repeat-reports.ts';
import {
  type AcceptedMessage,
  distinctMessages,
  mergeRuntimeUpdates,
  type RuntimeUpdate,
} from './runtime-merge.ts';
import { FencedBatchError, type SoleWriterPipeline, type WriterFence } from './sole-writer.ts';
import '../events.ts';

export interface IngestOptions {
  logger: ModuleLogger;
  /** Most messages written in one transaction (default 2000). */
  maxBatch?: number;
  /** How long a partial batch waits for more messages while no batch is being written (default 5 ms). */
  maxDelayMs?: number;
  /**
   * While a batch is being written, another writer starts only for this many queued messages (default a
   * quarter of `maxBatch`), or once the oldest has waited `maxWaitMs`: below that, the messages wait for the
   * running commit and go as one larger batch (group commit).
   */
  parallelBatch?: number;
  /** Longest a queued message waits for a writer that is free (default 50 ms). */
  maxWaitMs?: number;
  /** Messages accepted but not yet committed beyond which the pipeline counts as saturated (default 20 000). */
  maxPending?: number;
  /** Batches written at once (default 1; more only on PostgreSQL). */
  writers?: number;
  /** First delay before a failed batch is written again; doubles up to 5 s (default 200 ms). */
  retryDelayMs?: number;
  /**
   * A report repeating the values its device's last write set, within this many ms of it, leaves the
   * runtime row unwritten; its time follows within about as long (`RepeatReports`). 0 (default): every
   * report writes. Only where this process is the one writer of ingest.
   */
  repeatIntervalMs?: number;
  /**
   * On PostgreSQL: what keeps this process's batches out of another instance's way while that one is the one
   * writer. With a fence the process starts as one writer of several and leaves repeats out only once the
   * lease makes it the one writer (`SoleWriterLease`); without (the embedded database) it is the one writer.
   */
  fence?: WriterFence;
  now?: () => number;
  directory?: DeviceDirectory;
  /** Where `report.stored` is published. */
  events?: EventBus;
  /**
   * Works out and stores the run states of the devices a batch changed, before the batch is announced
   * (the iot module's RunStateKeeper); without it a device shows the run state its lock reports.
   */
  runStates?: RunStateSettler;
}

/** Keeps the shown run states of written rows (the iot module's RunStateKeeper). */
export interface RunStateSettler {
  /** What the runtime upsert needs to pass over rows whose run state cannot change. */
  hints(): Promise<RunStateHints>;
  /** Works out and stores the states of these devices; answers those whose shown state changed. */
  settle(deviceIds: readonly string[]): Promise<Map<string, RunState | null>>;
}

/** What became of a message: stored, already stored before, or refused for a reason. */
export type IngestOutcome = 'stored' | 'duplicate' | RejectReason;

/** A device's runtime data as a committed batch changed it. */
export interface CommittedRuntime extends RuntimeUpdate {
  stationId: string;
  /** When the device says it sent the message behind `lastMessageId` (its clock, ms), if it said. */
  reportedAt?: number;
}

/**
 * What a device reported in a committed batch that happened once, whatever it did to the runtime data: the
 * openings and offline-PIN reports of every new message, a late one among them too (a message older than
 * the runtime data, from another writer or instance, changes no state but its opening still happened).
 */
export interface ReportedEvents {
  deviceId: string;
  stationId: string;
  unlocks?: NonNullable<RuntimeUpdate['unlocks']>;
  pinReports?: NonNullable<RuntimeUpdate['pinReports']>;
}

/** What a committed batch changed, for the live channels (never raw payloads). */
export interface IngestCommit {
  /** One entry per device whose runtime data the batch changed (late messages change nothing). */
  runtime: CommittedRuntime[];
  /** The device commands the batch's answers moved on, as they now stand. */
  commands: DeviceCommandRecord[];
  /** The openings and PIN reports of the batch's new messages, one entry per device that had any. */
  reported: ReportedEvents[];
}

interface Queued extends AcceptedMessage {
  stationId: string;
  /** The device's number, its history's key. */
  deviceSeq: number;
  protocol: DeviceProtocol;
  reportTime: number;
  raw: string;
  reportedAt: number | undefined;
  /** When the pipeline took it (its clock): how long it has waited for a writer. */
  queuedAt: number;
  settle: (outcome: IngestOutcome) => void;
  fail: (error: Error) => void;
}

/** Logs at most one line per reason every 10 s, with the number of refusals it stands for. */
class RejectionLog {
  private readonly last = new Map<string, { at: number; suppressed: number }>();
  constructor(
    private readonly logger: ModuleLogger,
    private readonly now: () => number,
  ) {}

  note(reason: RejectReason, context: Record<string, unknown>): void {
    const now = this.now();
    const seen = this.last.get(reason);
    if (seen && now - seen.at < 10_000) {
      seen.suppressed++;
      return;
    }
    this.last.set(reason, { at: now, suppressed: 0 });
    this.logger.warn(
      { reason, ...context, ...(seen?.suppressed ? { alsoRefusedSinceLastLine: seen.suppressed } : {}) },
      'device message refused',
    );
  }
}

/** The command results among newly stored messages, as answers to the commands they name. */
function commandAnswersOf(messages: readonly Queued[]): CommandAnswer[] {
  const answers: CommandAnswer[] = [];
  for (const m of messages) {
    if (m.message.kind !== 'commandResult') continue;
    const { commandId, outcome, detail } = m.message;
    answers.push({ deviceId: m.deviceId, commandId, outcome, detail, at: new Date(m.receivedAt) });
  }
  return answers;
}

/**
 * Where an inbound message holds U+0000, if anywhere: text columns cannot store it, and in a batch it would
 * fail the other devices' messages written with it.
 */
function nulTextOf(inbound: InboundMessage): string | undefined {
  if (inbound.raw.includes('\u0000')) return 'raw';
  if (Object.values(inbound.address).some((text) => text.includes('\u0000'))) return 'address';
  return nulFieldOf(inbound.message);
}

/** A rejection that is the pipeline's own state, not the message's fault: the message must not be acknowledged. */
export class IngestClosedError extends Error {
  override name = 'IngestClosedError';
}

/**
 * The one ingest path of every adapter (ARCHITECTURE §5): a message of a registered device is written as a
 * device history record and folded into the device's runtime data, in batches, each batch in one
 * transaction. `submit` resolves once the message is committed (or found to be a repeat, or refused), so an
 * adapter acknowledges only what is safe. A failed batch is retried, never dropped.
 */
export class IngestPipeline implements SoleWriterPipeline {
  readonly directory: DeviceDirectory;
  private readonly stats = new IngestStats();
  private readonly logger: ModuleLogger;
  private readonly rejections: RejectionLog;
  private readonly maxBatch: number;
  private readonly maxDelayMs: number;
  private readonly parallelBatch: number;
  private readonly maxWaitMs: number;
  private readonly maxPending: number;
  private readonly writers: number;
  private readonly retryDelayMs: number;
  private readonly now: () => number;
  private readonly queue: Queued[] = [];
  private readonly drainWaiters: Array<() => void> = [];
  private pendingCount = 0;
  private activeWriters = 0;
  private timer: NodeJS.Timeout | null = null;
  /** When `timer` fires. */
  private timerAt = 0;
  private closed = false;
  /** Set when shutdown gave up waiting for the database: failed batches stop retrying. */
  private abandoned = false;
  private readonly retryWakers = new Set<() => void>();
  private idleWaiters: Array<() => void> = [];
  private readonly events: EventBus;
  private readonly runStates: RunStateSettler;
  private readonly repeats: RepeatReports;
  /** When the repeats' times are written next. */
  private timesTimer: NodeJS.Timeout | null = null;
  /** The write of the repeats' times under way. */
  private timesWrite: Promise<void> | null = null;
  private readonly fence: WriterFence | undefined;
  /** While above 0 no batch is started (`whileIdle`). */
  private paused = 0;
  private writerIdleWaiters: Array<() => void> = [];
  private unpausedWaiters: Array<() => void> = [];
  /** Batches inside an attempt to be written (not those waiting to try again). */
  private attempting = 0;

  constructor(
    private readonly db: Db,
    options: IngestOptions,
  ) {
    this.logger = options.logger;
    this.now = options.now ?? Date.now;
    this.maxBatch = Math.max(1, options.maxBatch ?? 2000);
    this.maxDelayMs = Math.max(0, options.maxDelayMs ?? 5);
    this.parallelBatch = Math.max(
      1,
      Math.min(this.maxBatch, options.parallelBatch ?? Math.ceil(this.maxBatch / 4)),
    );
    this.maxWaitMs = Math.max(this.maxDelayMs, options.maxWaitMs ?? 50);
    this.maxPending = Math.max(1, options.maxPending ?? 20_000);
    this.writers = Math.max(1, options.writers ?? 1);
    this.retryDelayMs = Math.max(1, options.retryDelayMs ?? 200);
    this.directory = options.directory ?? new DeviceDirectory(db, { now: this.now });
    this.rejections = new RejectionLog(this.logger, this.now);
    this.events = options.events ?? new EventBus(options.logger);
    this.repeats = new RepeatReports(Math.max(0, options.repeatIntervalMs ?? 0), options.fence === undefined);
    this.fence = options.fence;
    if (this.repeats.intervalMs > 0) {
      // A device marked offline is written by its next report, which marks it online again.
      this.events.subscribe('runtime.offline', 'ingest repeats', (offline) =>
        this.repeats.forget(offline.map((d) => d.deviceId)),
      );
    }
    this.runStates = options.runStates ?? {
      hints: async () => NO_HINTS,
      settle: async (deviceIds) =>
        new Map(
          (await settleRunStates(db, deviceIds, REPORTED_ONLY, this.now())).map((c) => [
            c.deviceId,
            c.runState,
          ]),
        ),
    };
  }

  /** Messages accepted and not yet committed. */
  get pending(): number {
    return this.pendingCount;
  }

  /** True while `pending` is at or above its bound: adapters stop reading until `whenDrained`. */
  get saturated(): boolean {
    return this.pendingCount >= this.maxPending;
  }

  /** Resolves once fewer than half the bound are pending (at once when not saturated). */
  whenDrained(): Promise<void> {
    if (!this.saturated) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  snapshot(): IngestStatsSnapshot {
    return this.stats.snapshot(this.pendingCount);
  }

  resetLatency(): void {
    this.stats.resetLatency();
  }

  /**
   * Counts and logs a message an adapter could not read (never written as data). `context` names where it
   * came from (protocol, topic or device address); it must not carry secrets.
   */
  refuse(reason: RejectReason, context: Record<string, unknown>): RejectReason {
    this.stats.received++;
    this.stats.rejected[reason]++;
    this.rejections.note(reason, context);
    return reason;
  }

  /**
   * Ingests one decoded message; resolves once it is committed, a known repeat, or refused. Not async: on the
   * common path (the device known to the directory) the message's one promise is the one its commit settles.
   */
  submit(inbound: InboundMessage): Promise<IngestOutcome> {
    if (this.closed) return Promise.reject(new IngestClosedError('ingest is shutting down'));
    const nul = nulTextOf(inbound);
    if (nul !== undefined) {
      return Promise.resolve(
        this.refuse('invalid', { protocol: inbound.protocol, detail: `${nul}: NUL character` }),
      );
    }
    const found = this.directory.resolve(inbound.address);
    return found instanceof Promise
      ? found.then((device) => this.enqueue(inbound, device))
      : this.enqueue(inbound, found);
  }

  private enqueue(inbound: InboundMessage, device: IngestDevice | null): Promise<IngestOutcome> {
    if (!device) {
      return Promise.resolve(
        this.refuse('unknownDevice', { protocol: inbound.protocol, address: inbound.address }),
      );
    }
    if (inbound.address.by === 'code' && inbound.address.stationId !== device.stationId) {
      return Promise.resolve(
        this.refuse('wrongStation', { protocol: inbound.protocol, address: inbound.address }),
      );
    }
    if (this.closed) return Promise.reject(new IngestClosedError('ingest is shutting down'));
    this.stats.received++;
    const message = inbound.message;
    const queuedAt = this.now();
    if (message.reportedAt !== undefined) this.stats.recordArrival(queuedAt - message.reportedAt);
    const byEui = inbound.address.by === 'devEui' ? inbound.address : null;
    return new Promise<IngestOutcome>((settle, fail) => {
      // Every field present, no spread: one object shape for every report.
      this.queue.push({
        deviceId: device.deviceId,
        deviceSeq: device.seq,
        stationId: device.stationId,
        messageId: message.messageId,
        message,
        receivedAt: inbound.receivedAt,
        devEui: byEui ? byEui.devEui.toUpperCase() : undefined,
        chirpstackApplicationId: byEui?.applicationId || undefined,
        protocol: inbound.protocol,
        reportTime: message.reportedAt ?? inbound.receivedAt,
        reportedAt: message.reportedAt,
        raw: inbound.raw,
        queuedAt,
        settle,
        fail,
      });
      this.pendingCount++;
      this.schedule();
    });
  }

  /**
   * Refuses new messages and writes what is queued. A database that cannot take it within `graceMs` (down,
   * unreachable) does not hold the shutdown: what is left is given up with IngestClosedError, so adapters
   * leave it unacknowledged and the devices or the broker send it again to the next server.
   */
  async close(graceMs = 10_000): Promise<void> {
    if (this.closed && this.pendingCount === 0 && this.repeats.unwrittenTimes === 0) return;
    const deadline = performance.now() + graceMs;
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.queue.length > 0 && this.activeWriters < this.writers) this.startBatch();
    if (this.pendingCount > 0) {
      const idle = new Promise<void>((resolve) => this.idleWaiters.push(resolve));
      if ((await within(idle, deadline)) === 'late') {
        this.abandoned = true;
        const left = this.queue.splice(0);
        this.pendingCount -= left.length;
        for (const m of left) m.fail(new IngestClosedError('ingest stopped before this message was stored'));
        this.logger.error(
          { messages: this.pendingCount + left.length },
          'ingest stopped with messages not stored; they stay unacknowledged',
        );
        this.wakeRetries();
        await idle;
        return this.leaveRepeatTimes();
      }
    }
    // The times get a second of their own should the batches have taken the grace time.
    const timesDeadline = Math.max(deadline, performance.now() + 1_000);
    if (
      (await within(this.writeRepeatTimes(), timesDeadline)) === 'late' ||
      this.repeats.unwrittenTimes > 0
    ) {
      this.leaveRepeatTimes();
    }
  }

  /** At shutdown: the repeats' times the database did not take stay behind their history records. */
  private leaveRepeatTimes(): void {
    const devices = this.repeats.takeTimes().length;
    if (devices === 0) return;
    this.logger.warn(
      { devices },
      'ingest stopped before the last collection times of repeated reports were written; the history holds them',
    );
  }

  /**
   * Starts the batches that are due and sets a timer for the next one. With no batch being written, a
   * partial batch goes after `maxDelayMs`; while one is written, the queue fills up behind it and goes when
   * that commit is done, unless it is already worth a writer of its own (`parallelBatch`) or has waited
   * `maxWaitMs`. Under load this keeps batches large, and the commits and runtime updates per report few.
   */
  private schedule(): void {
    if (this.paused > 0) return;
    while (this.activeWriters < this.writers && this.queue.length >= this.maxBatch) this.startBatch();
    while (this.activeWriters < this.writers && this.queue.length > 0) {
      const waited = this.now() - this.queue[0]!.queuedAt;
      const due =
        this.activeWriters === 0
          ? waited >= this.maxDelayMs
          : this.queue.length >= this.parallelBatch || waited >= this.maxWaitMs;
      if (!due) break;
      this.startBatch();
    }
    if (this.queue.length === 0 || this.activeWriters >= this.writers) return;
    const dueAt = this.queue[0]!.queuedAt + (this.activeWriters === 0 ? this.maxDelayMs : this.maxWaitMs);
    if (this.timer && this.timerAt <= dueAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = dueAt;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.schedule();
      },
      Math.max(0, dueAt - this.now()),
    );
  }

  private startBatch(): void {
    const batch = this.queue.splice(0, this.maxBatch);
    if (batch.length === 0) return;
    this.activeWriters++;
    // Without repeats the bookkeeping is skipped: no list of the batch's devices is built.
    const taken = this.repeats.begin(this.repeats.intervalMs > 0 ? batch.map((m) => m.deviceId) : []);
    void this.writeUntilDone(batch, taken).finally(() => {
      this.repeats.end(taken);
      this.activeWriters--;
      this.pendingCount -= batch.length;
      this.afterBatch();
    });
  }

  private afterBatch(): void {
    if (this.pendingCount < this.maxPending / 2) {
      for (const wake of this.drainWaiters.splice(0)) wake();
    }
    if (this.queue.length > 0) {
      if (this.closed) {
        while (this.queue.length > 0 && this.activeWriters < this.writers) this.startBatch();
      } else {
        this.schedule();
      }
    }
    if (this.pendingCount === 0) for (const wake of this.idleWaiters.splice(0)) wake();
  }

  /** This process has become the one writer of ingest: reports repeating their lock's last write may be left out. */
  becomeSole(): void {
    this.repeats.becomeSole();
  }

  /**
   * Another writer may come: no more repeats are left out; resolves once those under way are done and their
   * times written (or ingest has closed).
   */
  async yieldRepeats(): Promise<void> {
    this.repeats.stepDown();
    while (this.repeats.repeatsUnderWay > 0) await this.repeats.settled();
    let delay = this.retryDelayMs;
    for (;;) {
      await this.writeRepeatTimes();
      if (this.repeats.unwrittenTimes === 0 || this.closed) return;
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 5_000);
    }
  }

  /**
   * Runs `work` with no batch under way, starting none until it is done; null, without running it, when the
   * batches under way have not ended within `withinMs`.
   */
  async whileIdle<T>(work: () => Promise<T>, withinMs: number): Promise<T | null> {
    this.paused++;
    try {
      const deadline = performance.now() + withinMs;
      // Batches waiting to try again are no matter: each attempt is fenced (or not) anew.
      while (this.attempting > 0) {
        const idle = new Promise<void>((resolve) => this.writerIdleWaiters.push(resolve));
        if ((await within(idle, deadline)) === 'late') return null;
      }
      return await work();
    } finally {
      this.paused--;
      if (this.paused === 0) {
        for (const wake of this.unpausedWaiters.splice(0)) wake();
        if (!this.closed) this.schedule();
      }
    }
  }

  private async writeUntilDone(batch: Queued[], taken: RepeatBatch): Promise<void> {
    let delay = this.retryDelayMs;
    for (;;) {
      // No attempt starts while `whileIdle` runs its work (shutdown goes on regardless).
      while (this.paused > 0 && !this.closed) {
        await new Promise<void>((resolve) => this.unpausedWaiters.push(resolve));
      }
      let failure: { error: unknown } | null = null;
      this.attempting++;
      try {
        await this.write(batch, taken);
      } catch (error) {
        failure = { error };
      } finally {
        this.attempting--;
        if (this.attempting === 0) for (const wake of this.writerIdleWaiters.splice(0)) wake();
      }
      if (failure === null) return;
      const { error } = failure;
      this.stats.failedBatches++;
      const context = {
        error: error instanceof Error ? error.message : String(error),
        messages: batch.length,
        retryInMs: delay,
      };
      if (error instanceof FencedBatchError) {
        // Expected for a moment while an instance starts next to one that ingests alone.
        this.fence?.refused();
        this.logger.info(context, 'ingest batch waits for the instance ingesting alone to step down');
      } else {
        this.logger.error(context, 'ingest batch could not be written; retrying');
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.retryWakers.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, delay);
        this.retryWakers.add(wake);
      });
      if (this.abandoned) {
        for (const m of batch) m.fail(new IngestClosedError('ingest stopped before this message was stored'));
        return;
      }
      delay = Math.min(delay * 2, 5_000);
    }
  }

  /** Ends the waits of failed batches at once (shutdown). */
  private wakeRetries(): void {
    const wakers = [...this.retryWakers];
    this.retryWakers.clear();
    for (const wake of wakers) wake();
  }

  private async write(batch: Queued[], taken: RepeatBatch): Promise<void> {
    const fresh = distinctMessages(batch);
    const written = (await this.writeAtOnce(fresh, taken)) ?? (await this.writeStepByStep(fresh, taken));
    const { inserted, commit } = written;
    await this.settleRunStates(commit, written.toCheck);
    const committedAt = this.now();
    this.stats.batches++;
    // The messages a batch holds twice are few and rare: without them, every message is its first.
    const first = fresh.length === batch.length ? null : new Set<Queued>(fresh);
    for (const m of batch) {
      const stored =
        (first === null || first.has(m)) &&
        (inserted === 'all' || inserted.has(historyKey(m.deviceId, m.messageId)));
      if (stored) {
        this.stats.stored++;
        if (m.reportedAt !== undefined) this.stats.recordLatency(committedAt - m.reportedAt);
      } else {
        this.stats.duplicates++;
      }
      m.settle(stored ? 'stored' : 'duplicate');
    }
    if (commit.runtime.length > 0 || commit.commands.length > 0 || commit.reported.length > 0) {
      this.announce(commit);
    }
  }

  /**
   * The common case in one trip to the database: every message is new and none answers a command. The
   * runtime updates are merged from all of them beforehand; should the history insert find a message already
   * stored (a redelivery: the insert fails on the message key), the batch is undone and null returned, for
   * `writeStepByStep`.
   */
  private async writeAtOnce(fresh: readonly Queued[], taken: RepeatBatch): Promise<Written | null> {
    if (fresh.length === 0 || fresh.some((m) => m.message.kind === 'commandResult')) return null;
    const updates = mergeRuntimeUpdates(fresh);
    const hints = await this.stateHints();
    // An update older than a repeat under way waits for that repeat's batch: whether it commits decides.
    while (this.repeats.overtaken(updates)) await this.repeats.settled();
    const plan = this.repeats.plan(updates, taken);
    let applied: Set<string> | null = null;
    try {
      // A late update's damage reports count too (the recount after the upsert takes them in).
      const damage = insertDamageReportsQuery(updates);
      const recount = recountDamageQuery(updates);
      // Another instance being the one writer undoes the batch at its first statement (then refused step by step).
      const fence = this.fence?.statement() ?? null;
      const steps: BatchStep[] = fence ? [{ query: fence, expectRowCount: 1 }] : [];
      steps.push({ query: insertHistoryQuery(fresh.map(historyRow), 'allNew'), name: 'ingest_history' });
      if (damage) steps.push({ query: damage, name: 'ingest_damage' });
      const runtimeStep =
        plan.write.length > 0
          ? steps.push({ query: upsertRuntimeQuery(plan.write, hints), name: 'ingest_runtime' }) - 1
          : null;
      const recountStep = recount ? steps.push({ query: recount }) - 1 : null;
      let outcome: BatchOutcome;
      try {
        outcome = await transactionBatch(this.db, steps);
      } catch (error) {
        if (isUniqueViolationOf(error, HISTORY_MESSAGE_KEY)) return null;
        throw error;
      }
      if (!outcome.done) return null;
      const { changed, toCheck } =
        runtimeStep === null
          ? { changed: new Set<string>(), toCheck: [] }
          : writtenRuntime(outcome.rows[runtimeStep]!);
      if (recountStep !== null) toCheck.push(...recountedDevices(outcome.rows[recountStep]!, toCheck));
      applied = changed;
      return {
        inserted: 'all',
        commit: {
          runtime: committedRuntime(updates, withRepeats(changed, plan), fresh),
          commands: [],
          reported: reportedEvents(updates, fresh),
        },
        toCheck,
      };
    } finally {
      this.doneRepeats(plan, applied);
    }
  }

  /** Any batch: the history rows first, then what the messages found new change. */
  private async writeStepByStep(fresh: readonly Queued[], taken: RepeatBatch): Promise<Written> {
    let commit: IngestCommit = { runtime: [], commands: [], reported: [] };
    let toCheck: string[] = [];
    const hints = await this.stateHints();
    // Which of its messages are new is known only inside the transaction, where it cannot wait: it waits
    // here for the repeats under way that its oldest message of a device is older than.
    const oldest = earliestTimes(fresh);
    while (this.repeats.overtaken(oldest)) await this.repeats.settled();
    this.repeats.stepIn(taken);
    let plan: RepeatPlan | null = null;
    let applied: Set<string> | null = null;
    try {
      const fence = this.fence?.statement() ?? null;
      const inserted = await this.db.transaction(async (tx) => {
        if (fence && rowsOf(await tx.execute(fence)).length === 0) throw new FencedBatchError();
        const keys = await insertHistory(tx, fresh.map(historyRow));
        const accepted = fresh.filter((m) => keys.has(historyKey(m.deviceId, m.messageId)));
        const updates = mergeRuntimeUpdates(accepted);
        plan = this.repeats.plan(updates, taken);
        const written = await upsertRuntime(tx, updates, hints, plan.write);
        toCheck = written.toCheck;
        const commands = await applyCommandAnswers(tx, commandAnswersOf(accepted));
        commit = {
          runtime: committedRuntime(updates, withRepeats(written.changed, plan), accepted),
          commands,
          reported: reportedEvents(updates, accepted),
        };
        applied = written.changed;
        return keys;
      });
      return { inserted, commit, toCheck };
    } catch (error) {
      applied = null;
      throw error;
    } finally {
      this.repeats.stepOut(taken);
      if (plan) this.doneRepeats(plan, applied);
    }
  }

  /** Ends a batch's plan of repeats; the repeats' times are written `repeatIntervalMs` after the first is left. */
  private doneRepeats(plan: RepeatPlan, applied: Set<string> | null): void {
    this.repeats.done(plan, applied);
    if (applied !== null) {
      this.stats.runtimeWrites += plan.write.length;
      this.stats.runtimeRepeats += plan.repeats.length;
    }
    this.scheduleRepeatTimes();
  }

  private scheduleRepeatTimes(): void {
    if (this.repeats.unwrittenTimes === 0 || this.timesTimer || this.closed) return;
    this.timesTimer = setTimeout(() => {
      this.timesTimer = null;
      void this.writeRepeatTimes();
    }, this.repeats.intervalMs);
    this.timesTimer.unref();
  }

  /**
   * Writes the repeats left to write (their times, in effect), in one statement. A failure keeps them for the
   * next time (or for the devices' next written updates, which carry newer times).
   */
  private writeRepeatTimes(): Promise<void> {
    if (this.timesWrite) return this.timesWrite.then(() => this.writeRepeatTimes());
    if (this.timesTimer) clearTimeout(this.timesTimer);
    this.timesTimer = null;
    const times = this.repeats.takeTimes();
    if (times.length === 0) return Promise.resolve();
    this.timesWrite = (async () => {
      try {
        // The repeats are written as any update is, where the row holds older data (strictly: a report of the
        // same millisecond written since wins): their states are those the row holds (the last write, which
        // planned them), so only their times move. Should another writer have changed the row meanwhile (an
        // instance that lost its lease), the newest report's states win all the same, but its shown run state
        // and the console follow only with the lock's next written report.
        await this.db.execute(
          upsertRuntimeQuery(
            times.map((t) => t.update),
            NO_HINTS,
            true,
          ),
        );
      } catch (error) {
        this.repeats.restoreTimes(times);
        this.logger.error(
          { error: error instanceof Error ? error.message : String(error), devices: times.length },
          'last collection times of repeated reports not written; kept for the next attempt',
        );
      } finally {
        this.timesWrite = null;
      }
      this.scheduleRepeatTimes();
    })();
    return this.timesWrite;
  }

  /** The run-state hints of the next write; none when they cannot be read (the pass then catches up). */
  private async stateHints(): Promise<RunStateHints> {
    try {
      return await this.runStates.hints();
    } catch {
      return NO_HINTS;
    }
  }

  /**
   * Stores the run states the batch changed and puts the shown state into what is announced: the state a
   * lock reported is not what the device shows when a computed one ranks higher, so the announced
   * `runState` is the shown one, and only where it changed (`committedRuntime` leaves it out). A failure
   * leaves the states to the periodic pass; the batch stands.
   */
  private async settleRunStates(commit: IngestCommit, deviceIds: readonly string[]): Promise<void> {
    let shown: Map<string, RunState | null>;
    try {
      shown = deviceIds.length > 0 ? await this.runStates.settle(deviceIds) : new Map();
    } catch (error) {
      this.logger.error(
        { error: error instanceof Error ? error.message : String(error) },
        'run states of an ingest batch not worked out; the periodic pass will',
      );
      shown = new Map();
    }
    if (shown.size === 0) return;
    for (const change of commit.runtime) {
      if (shown.has(change.deviceId)) change.runState = shown.get(change.deviceId) ?? 'normal';
    }
  }

  /**
   * Publishes `report.stored` after each committed batch that changed something. Its handlers run on the
   * ingest path: they must be quick.
   */
  private announce(commit: IngestCommit): void {
    this.events.publish('report.stored', commit);
  }
}

interface Written {
  /** History keys the batch inserted, or all: each of its distinct messages was new. */
  inserted: ReadonlySet<string> | 'all';
  commit: IngestCommit;
  /** The devices whose run state needs working out again after the batch. */
  toCheck: string[];
}

/** Whether `work` settles before `deadline` (`performance.now()` time). */
async function within(work: Promise<unknown>, deadline: number): Promise<'done' | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.max(0, deadline - performance.now()));
  });
  try {
    return await Promise.race([work.then(() => 'done' as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Each device's earliest receive time among these messages. */
function earliestTimes(messages: readonly Queued[]): Array<{ deviceId: string; lastCollectTime: number }> {
  const earliest = new Map<string, number>();
  for (const m of messages) {
    const known = earliest.get(m.deviceId);
    if (known === undefined || m.receivedAt < known) earliest.set(m.deviceId, m.receivedAt);
  }
  return [...earliest].map(([deviceId, lastCollectTime]) => ({ deviceId, lastCollectTime }));
}

/** The devices a batch changed: those whose row it wrote and its repeats (whose time moved on). */
function withRepeats(changed: ReadonlySet<string>, plan: RepeatPlan): Set<string> {
  const all = new Set(changed);
  for (const update of plan.repeats) all.add(update.deviceId);
  return all;
}

function historyRow(m: Queued): HistoryInsert {
  return {
    deviceId: m.deviceId,
    deviceSeq: m.deviceSeq,
    messageId: m.messageId,
    protocol: m.protocol,
    reportTime: m.reportTime,
    receiveTime: m.receivedAt,
    raw: m.raw,
    content: isRecordedAgain(m.protocol, m.message) ? null : m.message,
  };
}

/** The openings and PIN reports of the merged updates (of new messages only), changed runtime or not. */
function reportedEvents(updates: readonly RuntimeUpdate[], accepted: readonly Queued[]): ReportedEvents[] {
  const reported: ReportedEvents[] = [];
  let stationOf: Map<string, string> | null = null;
  for (const { deviceId, unlocks, pinReports } of updates) {
    if (!unlocks && !pinReports) continue;
    stationOf ??= new Map(accepted.map((m) => [m.deviceId, m.stationId]));
    reported.push({
      deviceId,
      stationId: stationOf.get(deviceId)!,
      ...(unlocks ? { unlocks } : {}),
      ...(pinReports ? { pinReports } : {}),
    });
  }
  return reported;
}

/** The merged updates that changed runtime data, with their device's station and report time. */
function committedRuntime(
  updates: readonly RuntimeUpdate[],
  changed: ReadonlySet<string>,
  accepted: readonly Queued[],
): CommittedRuntime[] {
  if (changed.size === 0) return [];
  const updateOf = new Map<string, RuntimeUpdate>();
  for (const update of updates) if (changed.has(update.deviceId)) updateOf.set(update.deviceId, update);
  // The message each changed device's update ends with.
  const lastOf = new Map<string, Queued>();
  for (const m of accepted) {
    if (updateOf.get(m.deviceId)?.lastMessageId === m.messageId) lastOf.set(m.deviceId, m);
  }
  const committed: CommittedRuntime[] = [];
  for (const update of updateOf.values()) {
    const last = lastOf.get(update.deviceId);
    if (last) committed.push(committedOf(update, last));
  }
  return committed;
}

/**
 * A changed device's entry, field by field with every field present: one object shape for all (a spread
 * copies only the fields an update has, and the `delete` of a run state turned the object into a slower
 * dictionary). The run state is left out: `settleRunStates` puts in the shown one where it changed.
 */
function committedOf(update: RuntimeUpdate, last: Queued): CommittedRuntime {
  const change: { [K in keyof Required<CommittedRuntime>]: CommittedRuntime[K] } = {
    deviceId: update.deviceId,
    lastCollectTime: update.lastCollectTime,
    lastMessageId: update.lastMessageId,
    lockState: update.lockState,
    doorState: update.doorState,
    battery: update.battery,
    rssi: update.rssi,
    runState: undefined,
    props: update.props,
    devEui: update.devEui,
    chirpstackApplicationId: update.chirpstackApplicationId,
    damageReports: update.damageReports,
    unlocks: update.unlocks,
    pinReports: update.pinReports,
    stationId: last.stationId,
    reportedAt: last.reportedAt,
  };
  return change;
}
