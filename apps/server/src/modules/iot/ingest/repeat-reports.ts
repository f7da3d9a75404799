import type { RuntimeUpdate } from './runtime-merge.ts';

/**
 * Reports that repeat what their device last wrote. A lock reporting often (a heartbeat every second, a
 * burst around an event) mostly sends the same states again: each such report would rewrite the device's
 * runtime row only to move its last collection time. Within `intervalMs` of the last write, a repeat's row
 * write is left out: the report is still stored in the history and announced to the console at once; its
 * time and message id are written later, one statement for every device (`takeTimes`), or by the device's
 * next written update. So the row's last collection time lags the truth by at most about `intervalMs`,
 * which the offline rule (never sooner than a minute) does not notice; the states it holds never lag.
 *
 * Since a repeat leaves the row's time behind, the row can no longer tell that an update is older than the
 * repeat: an update planned after a newer one of its device (a batch written step by step, a retry) is
 * `late` here and writes nothing, as the row's own check would have found had the repeat been written.
 *
 * It knows only what this process wrote: it holds only where one writer ingests (the embedded database, or
 * one server instance on PostgreSQL). Pure bookkeeping, no I/O; the pipeline calls it around each batch.
 */
export class RepeatReports {
  /** Per device, the values of its last write that the database applied, and that write's time. */
  private readonly written = new Map<string, { values: string; at: number }>();
  /** Devices with a write under way: until it is done, nothing is compared with what they hold. */
  private readonly writing = new Map<string, number>();
  /** Per device, the newest repeat not yet written: its time and message id. */
  private readonly times = new Map<string, { at: number; messageId: string }>();
  /** Per device, the newest time of any update planned. */
  private readonly newest = new Map<string, number>();

  constructor(readonly intervalMs: number) {}

  /**
   * Splits a batch's merged updates into those to write, the repeats and the late ones. An update is a
   * repeat when it sets the same values as the device's last applied write, came less than `intervalMs`
   * after it, carries no event that must be recorded (damage, opening, PIN), and no write of the device is
   * under way. It is late when an update of the device with a newer time was planned before it. Every
   * planned write counts as under way until `done`. With an interval of 0 every update is written.
   */
  plan(updates: readonly RuntimeUpdate[]): RepeatPlan {
    const write: RuntimeUpdate[] = [];
    const repeats: RuntimeUpdate[] = [];
    const late: RuntimeUpdate[] = [];
    if (this.intervalMs === 0) return { write: [...updates], repeats, late };
    for (const update of updates) {
      const newest = this.newest.get(update.deviceId);
      if (newest !== undefined && update.lastCollectTime < newest) {
        late.push(update);
        continue;
      }
      this.newest.set(update.deviceId, update.lastCollectTime);
      const last = this.written.get(update.deviceId);
      if (
        last !== undefined &&
        !this.writing.has(update.deviceId) &&
        update.lastCollectTime >= last.at &&
        update.lastCollectTime - last.at < this.intervalMs &&
        valuesOf(update) === last.values
      ) {
        repeats.push(update);
        continue;
      }
      write.push(update);
      this.writing.set(update.deviceId, (this.writing.get(update.deviceId) ?? 0) + 1);
    }
    return { write, repeats, late };
  }

  /**
   * Ends a plan: `applied` are the devices whose row the write changed once committed (a late update changes
   * nothing), or null when the batch failed. An applied write becomes what later updates are compared with,
   * unless another write of the device is still under way; any other write leaves nothing to compare with.
   * Committed repeats leave their time to be written.
   */
  done(plan: RepeatPlan, applied: ReadonlySet<string> | null): void {
    if (this.intervalMs === 0) return;
    for (const update of plan.write) {
      const id = update.deviceId;
      const under = (this.writing.get(id) ?? 1) - 1;
      if (under > 0) this.writing.set(id, under);
      else this.writing.delete(id);
      const values = applied?.has(id) && under === 0 ? valuesOf(update) : null;
      if (values === null) {
        this.written.delete(id);
        continue;
      }
      this.written.set(id, { values, at: update.lastCollectTime });
      const time = this.times.get(id);
      if (time !== undefined && time.at <= update.lastCollectTime) this.times.delete(id);
    }
    if (applied === null) return;
    for (const update of plan.repeats) {
      const last = this.written.get(update.deviceId);
      if (last !== undefined && last.at >= update.lastCollectTime) continue;
      const time = this.times.get(update.deviceId);
      if (time === undefined || time.at <= update.lastCollectTime) {
        this.times.set(update.deviceId, { at: update.lastCollectTime, messageId: update.lastMessageId });
      }
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
    const taken = [...this.times].map(([deviceId, t]) => ({ deviceId, at: t.at, messageId: t.messageId }));
    this.times.clear();
    return taken.sort((a, b) => (a.deviceId < b.deviceId ? -1 : a.deviceId > b.deviceId ? 1 : 0));
  }

  /** Puts back times whose write failed, unless a newer one came meanwhile. */
  restoreTimes(times: readonly RepeatTime[]): void {
    for (const t of times) {
      const now = this.times.get(t.deviceId);
      if (now === undefined || now.at < t.at)
        this.times.set(t.deviceId, { at: t.at, messageId: t.messageId });
    }
  }
}

/**
 * A batch's updates: those written to the runtime rows, the repeats left out, and the late ones (older than
 * an update of their device planned before them: they change no runtime data, their events still count).
 */
export interface RepeatPlan {
  write: RuntimeUpdate[];
  repeats: RuntimeUpdate[];
  late: RuntimeUpdate[];
}

/** A repeat's time, to be written to its device's runtime row where the row holds an older one. */
export interface RepeatTime {
  deviceId: string;
  at: number;
  messageId: string;
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
