/**
 * The benchmark's side of the server child: forks `ingest-server.ts` in a process group of its own (so that
 * Ctrl-C reaches the benchmark only, which then stops the child in order), and asks it questions over IPC.
 */
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IngestStatsSnapshot } from '../apps/server/src/modules/iot/ingest/ingest-stats.ts';
import type {
  BenchReply,
  BenchRequest,
  BenchServerEvent,
  BenchServerSettings,
  StoredCount,
} from './ingest-ipc.ts';

const ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'ingest-server.ts');
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 60_000;

type Distribute<T> = T extends { type: infer K } ? Omit<T, 'id'> & { type: K } : never;
type Request = Distribute<BenchRequest>;

export interface ServerStats {
  snapshot: IngestStatsSnapshot;
  brokerPid: number | null;
  brokerRestarts: number;
  /** The server main thread's event-loop delay since the last latency reset. */
  loopDelayMs: { p50: number; p99: number; max: number };
}

export class ServerChild {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (reply: BenchReply) => void; reject: (e: Error) => void }
  >();
  private exitedFlag = false;
  readonly exited: Promise<number | null>;

  private constructor(
    readonly process: ChildProcess,
    readonly url: string,
    readonly mqttUrl: string,
    readonly consoleWsUrl: string | null,
  ) {
    this.exited = new Promise((resolve) => {
      if (process.exitCode !== null) resolve(process.exitCode);
      process.once('exit', (code) => resolve(code));
    });
    process.once('exit', () => {
      this.exitedFlag = true;
      for (const { reject } of this.pending.values()) reject(new Error('the server child exited'));
      this.pending.clear();
    });
    process.on('message', (raw: unknown) => {
      const reply = raw as BenchReply;
      if (!('id' in reply)) return;
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (reply.type === 'error') waiter.reject(new Error(`server child: ${reply.message}`));
      else waiter.resolve(reply);
    });
  }

  get pid(): number {
    return this.process.pid ?? 0;
  }

  get hasExited(): boolean {
    return this.exitedFlag;
  }

  static async start(settings: BenchServerSettings, extraNodeFlags: string[] = []): Promise<ServerChild> {
    const child = fork(ENTRY, [], {
      execArgv: ['--import', 'tsx', ...extraNodeFlags],
      env: { ...process.env, BENCH_SERVER_CONFIG: JSON.stringify(settings) },
      // The server's log goes to our stderr: our stdout carries the one JSON line only.
      stdio: ['ignore', 2, 2, 'ipc'],
      detached: true,
    });
    const event = await new Promise<BenchServerEvent>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the server did not start within ${START_TIMEOUT_MS / 1000} s`));
      }, START_TIMEOUT_MS);
      child.on('message', function onMessage(raw: unknown) {
        const message = raw as BenchServerEvent;
        if (message.type !== 'ready' && message.type !== 'failed') return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(message);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the server exited during start-up (${signal ?? `code ${code}`})`));
      });
    });
    if (event.type === 'failed') throw new Error(`the server failed to start: ${event.message}`);
    return new ServerChild(child, event.url, event.mqttUrl, event.consoleWsUrl);
  }

  private request(message: Request): Promise<BenchReply> {
    if (this.exitedFlag) return Promise.reject(new Error('the server child has exited'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.process.send({ ...message, id } as BenchRequest);
    });
  }

  async stats(): Promise<ServerStats> {
    const reply = await this.request({ type: 'stats' });
    if (reply.type !== 'stats') throw new Error(`unexpected reply ${reply.type}`);
    return {
      snapshot: reply.snapshot,
      brokerPid: reply.brokerPid,
      brokerRestarts: reply.brokerRestarts,
      loopDelayMs: reply.loopDelayMs,
    };
  }

  async resetLatency(): Promise<void> {
    await this.request({ type: 'resetLatency' });
  }

  async storedCounts(runPrefix: string): Promise<StoredCount[]> {
    const reply = await this.request({ type: 'count', runPrefix });
    if (reply.type !== 'count') throw new Error(`unexpected reply ${reply.type}`);
    return reply.counts;
  }

  /** Asks the server to stop (it finishes what it holds); SIGKILL after a minute. */
  async stop(): Promise<void> {
    if (this.exitedFlag) return;
    const killTimer = setTimeout(() => this.process.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await this.request({ type: 'stop' }).catch(() => undefined);
    await this.exited;
    clearTimeout(killTimer);
  }
}
