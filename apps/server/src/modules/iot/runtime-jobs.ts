import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import type { EventBus } from '../../infra/events/event-bus.ts';
import type { ModuleLogger } from '../../lib/module-logger.ts';
import { startPeriodicJobs } from '../../lib/periodic-jobs.ts';
import { deviceType } from '../devices/devices.schema.ts';
import type { DeviceHistoryService } from './device-history.service.ts';
import { offlineAfterSeconds } from './online-rule.ts';
import type { RunStateKeeper } from './run-states.ts';
import './events.ts';

/** Two server instances never sweep at the same moment (a transaction-level advisory lock). */
const SWEEP_LOCK = 74_201_005;

/** A device the sweep marked offline. */
export interface WentOffline {
  deviceId: string;
  stationId: string;
  lastCollectTime: Date | null;
  /** When it went offline: its last message plus its type's allowance. */
  offlineSince: Date | null;
}

/**
 * Marks offline every online device silent for longer than its type allows (online-rule.ts); its offline
 * time is the moment the allowance ran out. Returns the devices that went offline. Among several server
 * instances only the one holding the sweep's lock marks them, so each change is reported exactly once.
 */
export async function sweepOfflineDevices(db: Db, now: Date): Promise<WentOffline[]> {
  const types = await db
    .select({ id: deviceType.id, heartbeat: deviceType.heartbeatInterval })
    .from(deviceType);
  if (types.length === 0) return [];
  const windows = JSON.stringify(
    types.map((t) => ({ type_id: t.id, window_s: offlineAfterSeconds(t.heartbeat) })),
  );
  return db.transaction(async (tx) => {
    const [lock] = rowsOf<{ locked: boolean }>(
      await tx.execute(sql`select pg_try_advisory_xact_lock(${SWEEP_LOCK}) as locked`),
    );
    if (!lock?.locked) return [];
    const result = await tx.execute(sql`
      update device_runtime r
      set online = false,
          offline_since = r.last_collect_time + make_interval(secs => w.window_s),
          updated_at = ${now}
      from device d, jsonb_to_recordset(${windows}::jsonb) as w(type_id text, window_s double precision)
      where r.device_id = d.id and w.type_id = d.type_id and r.online
        and r.last_collect_time < ${now}::timestamptz - make_interval(secs => w.window_s)
      returning r.device_id, d.station_id, r.last_collect_time, r.offline_since`);
    return rowsOf<{
      device_id: string;
      station_id: string;
      last_collect_time: Date | string | null;
      offline_since: Date | string | null;
    }>(result).map((r) => ({
      deviceId: r.device_id,
      stationId: r.station_id,
      lastCollectTime: r.last_collect_time === null ? null : new Date(r.last_collect_time),
      offlineSince: r.offline_since === null ? null : new Date(r.offline_since),
    }));
  });
}

export interface RuntimeJobsOptions {
  db: Db;
  history: DeviceHistoryService;
  /** Days a telemetry record is kept (HISTORY_RETENTION_DAYS). */
  retentionDays: number;
  logger: Pick<ModuleLogger, 'info' | 'error'>;
  /** How often the offline sweep runs (default 15 s). */
  sweepIntervalMs?: number;
  /** How often old telemetry is purged (default hourly). */
  purgeIntervalMs?: number;
  now?: () => Date;
  /** Where `runtime.offline` is published with the devices each sweep marked offline, once committed. */
  events: EventBus;
  /** Keeps the shown run states; its pass runs every `runStateIntervalMs` (default 5 s). */
  runStates?: Pick<RunStateKeeper, 'pass'>;
  runStateIntervalMs?: number;
}

/** Starts the periodic offline sweep and telemetry purge; returns the function that stops them. */
export function startRuntimeJobs(options: RuntimeJobsOptions): () => Promise<void> {
  const now = options.now ?? (() => new Date());
  const sweep = async () => {
    const offline = await sweepOfflineDevices(options.db, now());
    if (offline.length > 0) options.events.publish('runtime.offline', offline);
  };
  const purge = async () => {
    const cutoff = new Date(now().getTime() - options.retentionDays * 86_400_000);
    const removed = await options.history.purgeBefore(cutoff);
    if (removed > 0)
      options.logger.info({ removed, before: cutoff.toISOString() }, 'old telemetry records removed');
  };
  return startPeriodicJobs(
    [
      { name: 'offlineSweep', intervalMs: options.sweepIntervalMs ?? 15_000, run: sweep, atStart: true },
      { name: 'historyPurge', intervalMs: options.purgeIntervalMs ?? 3_600_000, run: purge, atStart: true },
      ...(options.runStates
        ? [
            {
              name: 'runStates',
              intervalMs: options.runStateIntervalMs ?? 5_000,
              run: () => options.runStates!.pass(),
              atStart: true,
            },
          ]
        : []),
    ],
    options.logger,
    'runtime job failed',
  );
}
