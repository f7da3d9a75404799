/**
 * The server under test of the ingest benchmark, run as a child process so that its CPU time and memory
 * are its own: the whole system (`startSystem`) on the prepared database, every listener on a free port.
 * It answers the benchmark over IPC (ingest counters, a latency reset for the measured window, stored
 * rows per device) and stops when asked.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { type Config, loadConfig } from '../apps/server/src/config.ts';
import { createLogger } from '../apps/server/src/logger.ts';
import { startSystem } from '../apps/server/src/system.ts';
import type {
  BenchReply,
  BenchRequest,
  BenchServerEvent,
  BenchServerSettings,
  StoredCount,
} from './ingest-ipc.ts';

function send(message: BenchReply | BenchServerEvent): void {
  process.send?.(message);
}

const settings = JSON.parse(process.env.BENCH_SERVER_CONFIG ?? '{}') as BenchServerSettings;
// Defaults of every setting (as an empty environment gives them), then the bench's own: free ports, no mail.
const config: Config = {
  ...loadConfig({ LOG_LEVEL: settings.logLevel }),
  port: 0,
  host: '127.0.0.1',
  dataDir: settings.dataDir,
  databaseUrl: settings.databaseUrl,
  mqttUrl: settings.mqttUrl,
  mqttPort: 0,
  mqttWsPort: 0,
  smtpUrl: undefined,
  noticeWebhooks: {},
  adminPassword: settings.adminPassword,
  demo: false,
  tcpDirectPort: 0,
  chirpstackMqttPassword: undefined,
  nbCallbackSecrets: {},
  // The harness's Mosquitto admits devices itself (anonymous); the embedded broker asks the server.
  mqttDeviceAuth: 'broker',
  corsOrigins: [],
  webDistDir: '/nonexistent',
  ingestRepeatSeconds: settings.repeatSeconds,
};

const log = createLogger(config.logLevel);
const system = await startSystem(config, log, () => {}).catch((error: unknown) => {
  send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});

interface CountRow {
  device_id: string;
  rows: number;
  distinct_ids: number;
}

async function storedCounts(runPrefix: string): Promise<StoredCount[]> {
  const result = await system.database.db.execute(sql`
    select device_id, count(*)::int as rows, count(distinct message_id)::int as distinct_ids
    from device_history where message_id like ${`${runPrefix}-%`}
    group by device_id`);
  const rows = Array.isArray(result) ? (result as CountRow[]) : ((result as { rows: CountRow[] }).rows ?? []);
  return rows.map((r) => ({
    deviceId: r.device_id,
    rows: Number(r.rows),
    distinctIds: Number(r.distinct_ids),
  }));
}

/** How late the main thread's event loop ran its callbacks: what an HTTP request waits before it is read. */
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();
const millis = (nanos: number) => Number((nanos / 1e6).toFixed(1));

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await system.stop();
}

process.on('message', (raw: unknown) => {
  const request = raw as BenchRequest;
  void (async () => {
    try {
      switch (request.type) {
        case 'stats':
          send({
            type: 'stats',
            id: request.id,
            snapshot: system.services.iot.ingest.snapshot(),
            brokerPid: system.deviceBus.broker?.pid ?? null,
            brokerRestarts: system.deviceBus.broker?.restarts ?? 0,
            loopDelayMs: {
              p50: millis(loopDelay.percentile(50)),
              p99: millis(loopDelay.percentile(99)),
              max: millis(loopDelay.max),
            },
          });
          return;
        case 'resetLatency':
          system.services.iot.ingest.resetLatency();
          loopDelay.reset();
          send({ type: 'resetLatency', id: request.id });
          return;
        case 'count':
          send({ type: 'count', id: request.id, counts: await storedCounts(request.runPrefix) });
          return;
        case 'stop':
          await stop();
          send({ type: 'stop', id: request.id });
          // A normal exit, so that `--cpu-prof` writes its profile.
          setTimeout(() => process.exit(0), 50);
          return;
      }
    } catch (error) {
      send({
        type: 'error',
        id: request.id,
        message: error instanceof Error ? error.message : String(error),
      });
    }
  })();
});
// The benchmark gone (Ctrl-C, crash): stop rather than linger.
process.on('disconnect', () => {
  void stop().finally(() => process.exit(0));
});
process.on('SIGTERM', () => {
  void stop().finally(() => process.exit(0));
});
process.on('SIGINT', () => {});

send({
  type: 'ready',
  url: system.url,
  mqttUrl: system.deviceBus.mqttUrl,
  consoleWsUrl: system.deviceBus.broker?.wsUrl ?? null,
  brokerPid: system.deviceBus.broker?.pid ?? null,
});
