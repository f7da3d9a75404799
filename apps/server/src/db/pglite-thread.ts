/**
 * The embedded database in a thread of its own. PGlite is PostgreSQL compiled to WebAssembly: run on the
 * main thread, every statement it executes holds up MQTT, ingest and HTTP alike (docs/performance.md). Here
 * it runs in a worker thread (`pglite-worker.mjs`), and this class offers the part of PGlite's interface
 * that drizzle uses (`query`, `exec`, `transaction`), plus `batch`: statements that run as one transaction
 * in one trip to the thread.
 */
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';

interface Statement {
  sql: string;
  params?: unknown[];
  rowMode?: 'array' | 'object';
  /** Type ids whose values stay PostgreSQL's text (drizzle's parsers for dates and intervals). */
  rawTypes?: number[];
}

export interface BatchStatement {
  sql: string;
  params: unknown[];
  /**
   * A statement run often: parsed and planned once in the thread under this name (lower-case letters, digits
   * and underscores), its parameters being text, numbers, booleans or null.
   */
  name?: string;
  /** The batch is undone when this statement's command tag reports another number of rows. */
  expectRowCount?: number;
}

export type BatchResult = { done: true; results: Results[] } | { done: false };

/** What a statement inside `transaction` runs on: PGlite's transaction interface, as drizzle uses it. */
export interface ThreadTransaction {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

type Answer =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: ErrorFields }
  | { listener: number; payload: string };
interface ErrorFields {
  message: string;
  name: string;
  [field: string]: unknown;
}

const PROBE = '\u0000pglite-thread-probe';

/**
 * The statement's options as the thread takes them. Drizzle passes parsers that keep some types as text;
 * functions cannot cross to the thread, so only such pass-through parsers are accepted.
 */
function statementOptions(options: QueryOptions | undefined): Omit<Statement, 'sql' | 'params'> {
  if (!options) return {};
  const rawTypes: number[] = [];
  for (const [type, parser] of Object.entries(options.parsers ?? {})) {
    if (parser(PROBE, Number(type)) !== PROBE) {
      throw new Error(`the embedded database thread only keeps values as text (type ${type})`);
    }
    rawTypes.push(Number(type));
  }
  if (options.serializers || options.blob || options.onNotice || options.paramTypes) {
    throw new Error('the embedded database thread takes rowMode and pass-through parsers only');
  }
  return {
    ...(options.rowMode ? { rowMode: options.rowMode } : {}),
    ...(rawTypes.length ? { rawTypes } : {}),
  };
}

/** The error the thread reported, as an Error of this thread with PostgreSQL's fields (code, constraint…). */
function errorFrom(fields: ErrorFields): Error {
  const { message, name, ...rest } = fields;
  const error = new Error(message);
  error.name = name;
  return Object.assign(error, rest);
}

export class PgliteThread {
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (e: Error) => void }
  >();
  private nextId = 1;
  private nextTransaction = 1;
  private readonly listeners = new Map<number, (payload: string) => void>();
  private nextListener = 1;
  private stopped: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (answer: Answer) => this.settle(answer));
    worker.on('error', (error) => this.stop(error));
    worker.on('exit', (code) =>
      this.stop(new Error(`the embedded database thread stopped (exit code ${code})`)),
    );
  }

  /** Starts the thread and opens the database in `dataDir` (in memory when null). */
  static async start(dataDir: string | null, startParams: readonly string[]): Promise<PgliteThread> {
    const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
      workerData: { dataDir, startParams: [...startParams] },
    });
    const thread = new PgliteThread(worker);
    // The thread's first answer (id 0) says whether the database opened.
    await new Promise<unknown>((resolve, reject) => thread.pending.set(0, { resolve, reject })).catch(
      async (error: unknown) => {
        await worker.terminate();
        throw error;
      },
    );
    return thread;
  }

  /** Whether the thread still runs (false after `close` or a failure). */
  get running(): boolean {
    return this.stopped === null;
  }

  async query<T>(sql: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    return (await this.call({ op: 'query', sql, params, ...statementOptions(options) })) as Results<T>;
  }

  exec(sql: string): Promise<Results[]> {
    return this.call({ op: 'exec', sql }) as Promise<Results[]>;
  }

  /** Runs `statements` as one transaction; see BatchStatement.expectRowCount. */
  batch(statements: readonly BatchStatement[]): Promise<BatchResult> {
    return this.call({ op: 'batch', steps: statements }) as Promise<BatchResult>;
  }

  /**
   * An interactive transaction: statements run inside it until `fn` settles, then it is committed (or rolled
   * back when `fn` throws). Other statements wait for it in the thread.
   */
  async transaction<T>(fn: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const txId = this.nextTransaction++;
    await this.call({ op: 'begin', tx: txId });
    let closed = false;
    const tx: ThreadTransaction = {
      query: async <R>(sql: string, params: unknown[] = [], options?: QueryOptions) =>
        (await this.call({ op: 'query', tx: txId, sql, params, ...statementOptions(options) })) as Results<R>,
      exec: (sql: string) => this.call({ op: 'exec', tx: txId, sql }) as Promise<Results[]>,
      rollback: async () => {
        closed = true;
        await this.call({ op: 'rollback', tx: txId });
      },
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await fn(tx);
    } catch (error) {
      if (!closed) {
        closed = true;
        await this.call({ op: 'rollback', tx: txId }).catch(() => undefined);
      }
      throw error;
    }
    if (!closed) {
      closed = true;
      await this.call({ op: 'commit', tx: txId });
    }
    return result;
  }

  /**
   * Calls `callback` with the payload of every notification on `channel` (PostgreSQL LISTEN), as PGlite's
   * `listen` does: a notification committed by a statement arrives before that statement's answer. Returns
   * the function that stops listening.
   */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    const listener = this.nextListener++;
    this.listeners.set(listener, callback);
    try {
      await this.call({ op: 'listen', channel, listener });
    } catch (error) {
      this.listeners.delete(listener);
      throw error;
    }
    return async () => {
      if (!this.listeners.delete(listener)) return;
      await this.call({ op: 'unlisten', listener });
    };
  }

  /** Closes the database (its files are complete afterwards) and ends the thread. */
  async close(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.call({ op: 'close' });
    } finally {
      this.stop(new Error('the embedded database is closed'));
      await this.worker.terminate();
    }
  }

  private call(message: Record<string, unknown>): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // The thread keeps the process alive while it has something to answer, and only then: a database
      // left open does not hold a finished process.
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...message });
    });
  }

  private settle(answer: Answer): void {
    if ('listener' in answer) {
      this.listeners.get(answer.listener)?.(answer.payload);
      return;
    }
    const waiting = this.pending.get(answer.id);
    if (!waiting) return;
    this.pending.delete(answer.id);
    if (this.pending.size === 0) this.worker.unref();
    if (answer.ok) waiting.resolve(answer.result);
    else waiting.reject(errorFrom(answer.error));
  }

  private stop(reason: Error): void {
    if (this.stopped) return;
    this.stopped = reason;
    for (const waiting of this.pending.values()) waiting.reject(reason);
    this.pending.clear();
  }
}
