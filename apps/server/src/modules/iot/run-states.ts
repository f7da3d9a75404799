import { type DamageLevelRow, type PowerLevelRow, type RunState, wholeParamValue } from '@uiot/contracts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import type { EventBus } from '../../infra/events/event-bus.ts';
import { type ModuleLogger, SILENT_LOGGER } from '../../lib/module-logger.ts';
import {
  RUNTIME_STATE_COLUMNS,
  type RuntimeStateRow,
  runtimeStateRows,
  runtimeStatesOf,
  setRunStatesQuery,
} from './ingest/ingest.repository.ts';
import {
  DAMAGE_WINDOW_MS,
  effectiveRunState,
  type RunStateFacts,
  type RunStateHints,
  runStateHints,
} from './run-state.ts';
import './events.ts';

/** The parameter holding how many minutes a door may stand open (0: the check is off). */
export const DOOR_OPEN_TIMEOUT_PARAM = 'DoorOpenTimeout';

/** Where the facts come from: the levels module and the parameters. */
export interface RunStateSources {
  powerLevels(): Promise<PowerLevelRow[]>;
  damageLevels(): Promise<DamageLevelRow[]>;
  getValues(names: readonly string[]): Promise<Record<string, string>>;
}

/** A device whose shown run state changed (published as `runtime.runState`). */
export interface RunStateChange {
  deviceId: string;
  stationId: string;
  runState: RunState | null;
}

/** How long the facts are kept before they are read again, change events or not (a parameter edit). */
const FACTS_TTL_MS = 30_000;

/** Two instances never run the pass at the same moment (a transaction-level advisory lock). */
const PASS_LOCK = 74_201_019;

/**
 * The door-open limit of the parameter's value in minutes (0: off), within its range whatever is stored
 * (`wholeParamValue`): a huge value once made every ingest batch fail ("interval out of range").
 */
export function doorOpenLimitMs(minutes: string | undefined): number {
  return wholeParamValue(DOOR_OPEN_TIMEOUT_PARAM, minutes).value * 60_000;
}

/**
 * Keeps the run state a device shows (docs/alarms.md, Run states): after each ingest batch it works out the
 * changed devices' states from their rows and stores the ones that differ; a periodic pass catches what no
 * report brings (a door that stays open past the limit, damage reports leaving the 30 days) and, after the
 * levels or the parameter changed, works out every device again.
 */
export class RunStateKeeper {
  private facts: { value: Promise<RunStateFacts>; readAt: number; key?: string } | null = null;
  /** The facts the last full pass worked with: another set means every device is worked out again. */
  private passedKey: string | null = null;
  /** The stored door-open values already logged as read otherwise: each is told once. */
  private readonly toldValues = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly sources: RunStateSources,
    private readonly events: EventBus,
    private readonly now: () => number = Date.now,
    private readonly logger: ModuleLogger = SILENT_LOGGER,
  ) {}

  /** Drops the kept facts (a level changed): the next batch or pass reads them again. */
  forget(): void {
    this.facts = null;
  }

  /** The levels and the door-open limit, kept for a while. */
  current(): Promise<RunStateFacts> {
    const now = this.now();
    if (this.facts && now - this.facts.readAt < FACTS_TTL_MS) return this.facts.value;
    const reading = Promise.all([
      this.sources.powerLevels(),
      this.sources.damageLevels(),
      this.sources.getValues([DOOR_OPEN_TIMEOUT_PARAM]),
    ]).then(([power, damage, values]) => ({
      powerLevels: power.map(({ level, startValue, endValue, state }) => ({
        level,
        startValue,
        endValue,
        state,
      })),
      damageLevels: damage.map(({ level, startValue, endValue }) => ({ level, startValue, endValue })),
      doorOpenLimitMs: this.doorOpenLimit(values[DOOR_OPEN_TIMEOUT_PARAM]),
    }));
    const kept = { value: reading, readAt: now };
    reading.catch(() => {
      if (this.facts === kept) this.facts = null;
    });
    this.facts = kept;
    return reading;
  }

  /** The door-open limit of the stored value; a value read otherwise is logged, once per value. */
  private doorOpenLimit(stored: string | undefined): number {
    const reading = wholeParamValue(DOOR_OPEN_TIMEOUT_PARAM, stored);
    const told = String(stored);
    if (reading.adjusted && !this.toldValues.has(told)) {
      this.toldValues.add(told);
      this.logger.warn(
        { param: DOOR_OPEN_TIMEOUT_PARAM, stored: stored?.slice(0, 64) ?? null, minutes: reading.value },
        reading.adjusted === 'clamped'
          ? `${DOOR_OPEN_TIMEOUT_PARAM} is out of range: read as ${reading.value} minutes`
          : `${DOOR_OPEN_TIMEOUT_PARAM} is not a number: read as its default, ${reading.value} minutes`,
      );
    }
    return reading.value * 60_000;
  }

  /**
   * Works out the run states of devices an ingest batch just wrote (those the upsert found may change) and
   * stores those that changed; answers the new state of each device whose shown state changed. Runs before
   * the batch is announced, so what the console and the alarm rules read already holds it.
   */
  async settle(deviceIds: readonly string[]): Promise<Map<string, RunState | null>> {
    if (deviceIds.length === 0) return new Map();
    const changes = await settleRunStates(this.db, deviceIds, await this.current(), this.now());
    return new Map(changes.map((c) => [c.deviceId, c.runState]));
  }

  /** What the runtime upsert needs to pass over rows whose run state cannot change. */
  async hints(): Promise<RunStateHints> {
    return runStateHints(await this.current());
  }

  /**
   * The periodic pass: doors open past the limit, damage values whose oldest report left the 30 days, and
   * every device once the facts changed. Publishes `runtime.runState` with the devices whose state changed.
   */
  async pass(): Promise<RunStateChange[]> {
    const facts = await this.current();
    const key = JSON.stringify(facts);
    const everyDevice = key !== this.passedKey;
    const changes = await this.db.transaction(async (tx) => {
      const [lock] = rowsOf<{ locked: boolean }>(
        await tx.execute(sql`select pg_try_advisory_xact_lock(${PASS_LOCK}) as locked`),
      );
      if (!lock?.locked) return null;
      const recounted = runtimeStateRows(rowsOf(await tx.execute(recountDamageQuery())));
      const candidates = runtimeStateRows(
        rowsOf(await tx.execute(passCandidatesQuery(everyDevice, facts.doorOpenLimitMs, this.now()))),
      );
      const rows = new Map(candidates.map((row) => [row.deviceId, row]));
      for (const row of recounted) rows.set(row.deviceId, row);
      return storeRunStates(tx, [...rows.values()], facts, this.now());
    });
    if (changes === null) return [];
    this.passedKey = key;
    if (changes.length > 0) this.events.publish('runtime.runState', changes);
    return changes;
  }
}

/** Reads the devices' rows and stores the run states that changed (see `storeRunStates`). */
export async function settleRunStates(
  db: Db,
  deviceIds: readonly string[],
  facts: RunStateFacts,
  now: number,
): Promise<RunStateChange[]> {
  return storeRunStates(db, await runtimeStatesOf(db, deviceIds), facts, now);
}

/** No levels and no door-open limit: a device shows the run state its lock reports. */
export const REPORTED_ONLY: RunStateFacts = { powerLevels: [], damageLevels: [], doorOpenLimitMs: 0 };

/** The hints of `REPORTED_ONLY`: a row needs working out only when its shown state differs from the lock's. */
export const NO_HINTS: RunStateHints = runStateHints(REPORTED_ONLY);

/**
 * Works out the run states of `rows` at `now` and stores those that differ from what the rows show; answers
 * the devices whose shown state changed.
 */
export async function storeRunStates(
  db: Db,
  rows: readonly RuntimeStateRow[],
  facts: RunStateFacts,
  now: number,
): Promise<RunStateChange[]> {
  const moved = rows
    .map((row) => ({ row, runState: effectiveRunState(row, facts, now) }))
    .filter(({ row, runState }) => runState !== row.runState)
    .map(({ row, runState }) => ({ deviceId: row.deviceId, runState, lastMessageId: row.lastMessageId }));
  if (moved.length === 0) return [];
  const stored = rowsOf<{ device_id: string; station_id: string; run_state: string | null }>(
    await db.execute(setRunStatesQuery(moved)),
  );
  return stored.map((r) => ({
    deviceId: r.device_id,
    stationId: r.station_id,
    runState: r.run_state as RunState | null,
  }));
}

/**
 * Counts again the damage value of devices whose oldest counted report has left the 30 days (answering
 * their rows), and removes reports older than that.
 */
function recountDamageQuery() {
  return sql`
    with gone as (
      delete from device_damage_report where reported_at <= now() - make_interval(secs => ${DAMAGE_WINDOW_MS / 1000})
    )
    update device_runtime rt
    set damage_count = c.n, damage_recount_at = c.recount_at
    from (
      select r2.device_id,
             (select count(*)::int from device_damage_report x
              where x.device_id = r2.device_id
                and x.reported_at > now() - make_interval(secs => ${DAMAGE_WINDOW_MS / 1000})) as n,
             (select min(x.reported_at) + make_interval(secs => ${DAMAGE_WINDOW_MS / 1000})
              from device_damage_report x
              where x.device_id = r2.device_id
                and x.reported_at > now() - make_interval(secs => ${DAMAGE_WINDOW_MS / 1000})) as recount_at
      from device_runtime r2
      where r2.damage_recount_at <= now()
    ) c
    where rt.device_id = c.device_id
    returning ${RUNTIME_STATE_COLUMNS}`;
}

/**
 * The rows the pass works out: every device after the facts changed; otherwise those whose door has stood
 * open past the limit without showing it, those whose damage value no longer fits what they show, and those
 * whose damage value is counted but not shown (the pass decides whether it falls in a level).
 */
function passCandidatesQuery(everyDevice: boolean, limitMs: number, now: number) {
  if (everyDevice) return sql`select ${RUNTIME_STATE_COLUMNS} from device_runtime rt`;
  const doorLate =
    limitMs > 0
      ? sql`(rt.door_open_since is not null
             and rt.door_open_since < ${new Date(now - limitMs)}::timestamptz
             and rt.run_state is distinct from 'timeOutNotClosed' and rt.run_state is distinct from 'damaged')`
      : sql`false`;
  return sql`
    select ${RUNTIME_STATE_COLUMNS} from device_runtime rt
    where ${doorLate}
       or (rt.damage_count > 0 and rt.run_state is distinct from 'damaged')`;
}
