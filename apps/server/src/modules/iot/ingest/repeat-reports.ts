import type { RuntimeUpdate } from './runtime-merge.ts';

/**
 * Reports that repeat what their device last wrote. A lock reporting often (a heartbeat every second, a
 * burst around an event) mostly sends the same states again: each such report would rewrite the device's
 * runtime row only to move its last collection time. Within `intervalMs` of the last write, a repeat's row
 * write is left out: the report is still stored in the history and announced to the console at once; it is
 * written later as any update is (where the row holds older data), one statement for every device
 * (`takeTimes`), unless the device's next written update carries a newer time first. So the row's last collection time lags the truth by at most about `intervalMs`,
 * which the offline rule (never sooner than a minute) does not notice; the states it holds never lag.
 *
 * A repeat leaves the row's time behind, so the row's own check (an update older than what it holds changes
 * nothing) cannot see it. Two rules keep the order of reports instead:
 * - an update is a repeat only when no batch taken before its own (`begin`) holds its device and has not
 *   planned yet: such a batch (its hints awaited, or written step by step) could write older states after it;
 * - an update older than a repeat of its device, committed or under way, is `late`: it writes nothing, as
 *   the row would have refused it had the repeat been written. Before it plans a batch, the pipeline waits
 *   for the repeats under way that its messages are older than (`overtaken`, `settled`): whether they
 *   commit decides. A batch whose plan was undone holds its devices again until it plans anew, so no later
 *   batch plans a repeat meanwhile that it would have to wait for inside its transaction.
 *
 * It knows only what this process wrote, so it plans repeats only while this process is the one writer of
 * ingest (`sole`): always on the embedded database; on PostgreSQL while no other instance is present
 * (`SoleWriterLease`). Each time it becomes the one writer a new era begins: only writes planned in it are
 * compared with, since a write planned before may have been followed by another instance's. Pure
 * bookkeeping, no I/O; the pipeline calls it around each batch.
 */
export class RepeatReports {
  /** Per device, the values of its last write that the database applied, and that write's time. */
  private readonly written = new Map<string, { values: string; at: number }>();
  /**
   * Per device, the values of its writes under way ('' for one with an event). While one would set other
   * values than the last applied write, nothing is compared with that write.
   */
  private readonly writing = new Map<string, string[]>();
  /** Per device, the newest repeat not yet written. */
  private readonly times = new Map<string, RuntimeUpdate>();
  /** Per device, the newest committed repeat's time: older updates are late. */
  private readonly floor = new Map<string, number>();
  /** Per device, the times of its repeats planned and not yet done. */
  private readonly repeating = new Map<string, number[]>();
  private settledWaiters: Array<() => void> = [];
  /** Per device, the batches between their wait and their plan step by step (`stepIn`). */
  private readonly stepping = new Map<string, number>();
  /** Per device, the unfinished batches holding it, in the order they were taken. */
  private readonly holding = new Map<string, number[]>();
  private batches = 0;
  /** The era in which this process is the one writer, 0 while it is not (`becomeSole`, `stepDown`). */
  private era = 0;
  private eras = 0;

  /** `sole`: whether this process starts as the one writer (false: it waits for `becomeSole`). */
  constructor(
    readonly intervalMs: number,
    sole = true,
  ) {
    if (sole) this.era = ++this.eras;
  }

  /** Whether repeats may be planned: this process is the one writer. */
  get sole(): boolean {
    return this.era !== 0;
  }

  /**
   * This process has become the one writer: a new era begins, and updates compare only with writes planned
   * from now on.
   */
  becomeSole(): void {
    if (this.era !== 0) return;
    this.era = ++this.eras;
    this.written.clear();
  }

  /**
   * Another writer may come: no update is taken for a repeat from now on. The repeats under way still end
   * (`repeatsUnderWay`) and leave their times to be written; until they are, older updates stay late.
   */
  stepDown(): void {
    this.era = 0;
    this.written.clear();
  }

  /** Repeats planned and not yet done. */
  get repeatsUnderWay(): number {
    return this.repeating.size;
  }

  /** A batch is taken from the queue with messages of these devices; `end` it once it is written. */
  begin(deviceIds: Iterable<string>): RepeatBatch {
    if (this.intervalMs === 0) return { number: 0, devices: [] };
    const number = ++this.batches;
    const devices: string[] = [];
    for (const id of deviceIds) {
      const held = this.holding.get(id);
      if (held === undefined) this.holding.set(id, [number]);
      else if (held.at(-1) === number) continue;
      else held.push(number);
      devices.push(id);
    }
    return { number, devices };
  }

  /**
   * The batch holds its devices again (its plan was undone: it plans again, written step by step or
   * retried), in its place among the batches taken.
   */
  private hold(batch: RepeatBatch): void {
    for (const id of batch.devices) {
      const held = this.holding.get(id);
      if (held === undefined) {
        this.holding.set(id, [batch.number]);
        continue;
      }
      if (held.includes(batch.number)) continue;
      const after = held.findIndex((n) => n > batch.number);
      held.splice(after < 0 ? held.length : after, 0, batch.number);
    }
  }

  /** The batch has planned, or is written (or given up): later batches may take its devices' updates for repeats. */
  end(batch: RepeatBatch): void {
    for (const id of batch.devices) {
      const held = this.holding.get(id);
      if (held === undefined) continue;
      const at = held.indexOf(batch.number);
      if (at >= 0) held.splice(at, 1);
      if (held.length === 0) this.holding.delete(id);
    }
  }

  /**
   * The batch has waited for the repeats under way and goes step by step: until it plans (or `stepOut`),
   * no other batch, one taken before it included, plans a repeat of its devices, which it could not wait
   * for inside its transaction.
   */
  stepIn(batch: RepeatBatch): void {
    if (batch.stepping) return;
    batch.stepping = true;
    for (const id of batch.devices) this.stepping.set(id, (this.stepping.get(id) ?? 0) + 1);
  }

  /** The batch has planned, or its step-by-step write ended before it could. */
  stepOut(batch: RepeatBatch): void {
    if (!batch.stepping) return;
    batch.stepping = false;
    for (const id of batch.devices) {
      const left = (this.stepping.get(id) ?? 1) - 1;
      if (left > 0) this.stepping.set(id, left);
      else this.stepping.delete(id);
    }
  }

  /**
   * Whether one of these updates (or times of a device's messages) is older than a repeat of its device that
   * is under way.
   */
  overtaken(updates: ReadonlyArray<{ deviceId: string; lastCollectTime: number }>): boolean {
    if (this.repeating.size === 0) return false;
    return updates.some((u) => (this.repeating.get(u.deviceId) ?? []).some((at) => at > u.lastCollectTime));
  }

  /** Resolves when the next plan is done. */
  settled(): Promise<void> {
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  /**
   * Splits a batch's merged updates into those to write, the repeats and the late ones. An update is a
   * repeat when it sets the same values as the device's last applied write, came less than `intervalMs`
   * after it, carries no event that must be recorded (damage, opening, PIN), no write of the device is under
   * way and no batch taken before `batch` holds the device. It is late when older than a repeat of the
   * device, committed or under way. Every planned write counts as under way until `done`. With an interval of 0 every update is
   * written. Without `batch`, no earlier batch is taken to hold the devices.
   */
  plan(updates: readonly RuntimeUpdate[], batch?: RepeatBatch): RepeatPlan {
    const write: RuntimeUpdate[] = [];
    const repeats: RuntimeUpdate[] = [];
    const late: RuntimeUpdate[] = [];
    if (this.intervalMs === 0) return { write: [...updates], repeats, late, era: 0 };
    const sole = this.era !== 0;
    for (const update of updates) {
      const id = update.deviceId;
      const floor = this.floor.get(id);
      const under = this.repeating.get(id);
      if (
        (floor !== undefined && update.lastCollectTime < floor) ||
        under?.some((at) => at > update.lastCollectTime)
      ) {
        late.push(update);
        continue;
      }
      const last = this.written.get(id);
      const first = batch === undefined || (this.holding.get(id)?.[0] ?? batch.number) === batch.number;
      const othersStepping = (this.stepping.get(id) ?? 0) - (batch?.stepping ? 1 : 0) > 0;
      const values = valuesOf(update);
      if (
        sole &&
        last !== undefined &&
        first &&
        !othersStepping &&
        values === last.values &&
        (this.writing.get(id)?.every((v) => v === last.values) ?? true) &&
        update.lastCollectTime >= last.at &&
        update.lastCollectTime - last.at < this.intervalMs
      ) {
        repeats.push(update);
        const times = this.repeating.get(id);
        if (times === undefined) this.repeating.set(id, [update.lastCollectTime]);
        else times.push(update.lastCollectTime);
        continue;
      }
      write.push(update);
      const pending = this.writing.get(id);
      if (pending === undefined) this.writing.set(id, [values ?? '']);
      else pending.push(values ?? '');
    }
    // Planned, the batch no longer holds its devices; should its plan be undone, it holds them again (`done`).
    if (batch !== undefined) {
      this.end(batch);
      this.stepOut(batch);
    }
    return { write, repeats, late, era: this.era, ...(batch ? { batch } : {}) };
  }

  /**
   * Ends a plan: `applied` are the devices whose row the write changed once committed (a late update changes
   * nothing), or null when the batch failed. An applied write becomes what later updates are compared with,
   * unless it is older than that, or a write of other values is still under way. A write the row refused,
   * or a failed one of other values, leaves nothing to compare with. Committed repeats leave their time to be
   * written, and older updates late.
   */
  done(plan: RepeatPlan, applied: ReadonlySet<string> | null): void {
    if (this.intervalMs === 0) return;
    if (applied === null && plan.batch) this.hold(plan.batch);
    for (const update of plan.repeats) {
      const times = this.repeating.get(update.deviceId);
      const at = times?.indexOf(update.lastCollectTime) ?? -1;
      if (at >= 0) times!.splice(at, 1);
      if (times?.length === 0) this.repeating.delete(update.deviceId);
    }
    for (const wake of this.settledWaiters.splice(0)) wake();
    for (const update of plan.write) {
      const id = update.deviceId;
      const values = valuesOf(update);
      const pending = this.writing.get(id) ?? [];
      const mine = pending.indexOf(values ?? '');
      if (mine >= 0) pending.splice(mine, 1);
      if (pending.length === 0) this.writing.delete(id);
      const last = this.written.get(id);
      if (applied === null) {
        // Written again later, a write of other values would change the row after what is compared with.
        if (values !== last?.values) this.written.delete(id);
        continue;
      }
      // Applied, the write is at least as new as the device's repeat left to write, which is not needed then.
      if (applied.has(id)) {
        const time = this.times.get(id);
        if (time !== undefined && time.lastCollectTime <= update.lastCollectTime) this.times.delete(id);
      }
      // A write planned in another era may have been followed by another writer's: it is not compared with.
      if (
        values === null ||
        !applied.has(id) ||
        pending.some((v) => v !== values) ||
        plan.era === 0 ||
        plan.era !== this.era
      ) {
        this.written.delete(id);
        continue;
      }
      const at = update.lastCollectTime;
      // An older write (its batch done after a newer one's) does not say what the row holds.
      if (last !== undefined && last.at > at) {
        if (last.values !== values) this.written.delete(id);
        continue;
      }
      this.written.set(id, { values, at });
    }
    if (applied === null) return;
    for (const update of plan.repeats) {
      const id = update.deviceId;
      const at = update.lastCollectTime;
      if ((this.floor.get(id) ?? -Infinity) < at) this.floor.set(id, at);
      const last = this.written.get(id);
      if (last !== undefined && last.at >= at) continue;
      const time = this.times.get(id);
      if (time === undefined || time.lastCollectTime <= at) this.times.set(id, update);
    }
  }

  /**
   * Forgets these devices (the offline sweep marked them offline): their next update is written, which marks
   * them online again.
   */
  forget(deviceIds: Iterable<string>): void {
    for (const id of deviceIds) this.written.delete(id);
  }

  /** Repeats whose time is not written yet. */
  get unwrittenTimes(): number {
    return this.times.size;
  }

  /**
   * Takes the repeats' times to write, in device id order (the order batches lock rows in). Give them back
   * with `restoreTimes` if the write fails.
   */
  takeTimes(): RepeatTime[] {
    const taken = [...this.times].map(([deviceId, update]) => ({
      deviceId,
      at: update.lastCollectTime,
      messageId: update.lastMessageId,
      update,
    }));
    this.times.clear();
    return taken.sort((a, b) => (a.deviceId < b.deviceId ? -1 : a.deviceId > b.deviceId ? 1 : 0));
  }

  /** Puts back times whose write failed, unless a newer one came meanwhile. */
  restoreTimes(times: readonly RepeatTime[]): void {
    for (const t of times) {
      const now = this.times.get(t.deviceId);
      if (now === undefined || now.lastCollectTime < t.at) this.times.set(t.deviceId, t.update);
    }
  }
}

/** A batch taken from the queue: its number and its devices. */
export interface RepeatBatch {
  number: number;
  devices: string[];
  /** Between its wait and its plan step by step. */
  stepping?: boolean;
}

/**
 * A batch's updates: those written to the runtime rows, the repeats left out, and the late ones (older than
 * a committed repeat of their device: they change no runtime data, their events still count).
 */
export interface RepeatPlan {
  write: RuntimeUpdate[];
  repeats: RuntimeUpdate[];
  late: RuntimeUpdate[];
  /** The batch planned for, if named. */
  batch?: RepeatBatch;
  /** The era the plan was made in (0: not as the one writer). */
  era: number;
}

/** A repeat's time, to be written to its device's runtime row where the row holds an older one. */
export interface RepeatTime {
  deviceId: string;
  at: number;
  messageId: string;
  /** The repeat itself, written as any update is (`upsertRuntimeQuery`): where the row holds older data. */
  update: RuntimeUpdate;
}

/**
 * What an update sets in the runtime row besides its time, as one comparable text; null when it carries an
 * event that is more than a state (damage counts, openings and PIN uses are recorded each time).
 */
export function valuesOf(update: RuntimeUpdate): string | null {
  if (update.damageReports || update.unlocks || update.pinReports) return null;
  return JSON.stringify([
    update.lockState ?? null,
    update.doorState ?? null,
    update.battery ?? null,
    update.rssi ?? null,
    update.runState ?? null,
    update.props ?? null,
    update.devEui ?? null,
    update.chirpstackApplicationId ?? null,
  ]);
}
