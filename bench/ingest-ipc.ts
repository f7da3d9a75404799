/**
 * The messages between the ingest benchmark and its server child (`ingest-server.ts`), over the fork's IPC
 * channel. The server answers each request with the same `id`.
 */
import type { IngestStatsSnapshot } from '../apps/server/src/modules/iot/ingest/ingest-stats.ts';

/** What the benchmark hands the server child (as JSON in `BENCH_SERVER_CONFIG`). */
export interface BenchServerSettings {
  dataDir: string;
  /** PostgreSQL; the embedded database under `dataDir` when absent. */
  databaseUrl?: string;
  /** External broker; the embedded one (on a free port) when absent. */
  mqttUrl?: string;
  adminPassword: string;
  logLevel: 'warn' | 'error' | 'info';
  /** INGEST_REPEAT_SECONDS; the server's default when absent. */
  repeatSeconds?: number;
  /** Where `alloc-profile.mjs` writes the main thread's allocation profile (`--alloc-prof`). */
  allocProfileDir?: string;
}

/** History rows of one run (by message id prefix) per device. */
export interface StoredCount {
  deviceId: string;
  rows: number;
  distinctIds: number;
}

export type BenchRequest =
  | { type: 'stats'; id: number }
  | { type: 'resetLatency'; id: number }
  | { type: 'count'; id: number; runPrefix: string }
  | { type: 'stop'; id: number };

export type BenchReply =
  | {
      type: 'stats';
      id: number;
      snapshot: IngestStatsSnapshot;
      brokerPid: number | null;
      brokerRestarts: number;
      /** The server main thread's event-loop delay since the last latency reset. */
      loopDelayMs: { p50: number; p99: number; max: number };
    }
  | { type: 'resetLatency'; id: number }
  | { type: 'count'; id: number; counts: StoredCount[] }
  | { type: 'stop'; id: number }
  | { type: 'error'; id: number; message: string };

export type BenchServerEvent =
  | {
      type: 'ready';
      url: string;
      mqttUrl: string;
      /** The embedded broker's WebSocket listener (null with an external broker). */
      consoleWsUrl: string | null;
      brokerPid: number | null;
    }
  | { type: 'failed'; message: string };
