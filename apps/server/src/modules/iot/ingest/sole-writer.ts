import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from '../../../db/client.ts';
import { errorMessage, type ModuleLogger } from '../../../lib/module-logger.ts';

/**
 * Which server instance is the one writer of ingest on a PostgreSQL database. A report repeating its lock's
 * last written states may be left unwritten (`RepeatReports`) only by a process that knows every write of
 * the runtime rows: on PostgreSQL, an instance that is alone. Two advisory locks, held on a connection of
 * the lease's own, say who is there:
 * - every ingesting instance holds PRESENT shared; the one writer holds it exclusive, so no instance gets in
 *   unnoticed: a newcomer asks (NOTIFY on `uiot_ingest_join`) until the one writer has stepped down;
 * - the one writer holds SOLE exclusive, and every batch of an instance that is not the one writer begins
 *   its transaction by taking SOLE shared (`fence`): an instance whose lease connection was lost (and with
 *   it its presence) fails its batches rather than write behind a one writer's back, and asks it to step
 *   down.
 * An instance that is alone takes PRESENT exclusive (its own shared hold does not stand in the way), then,
 * with no batch of its own under way (they hold SOLE shared), SOLE exclusive. Stepping down, it plans no
 * more repeats, waits for those under way, writes their times, and only then lets both go. The locks go
 * with the connection: an instance that stops or dies leaves the others free to find themselves alone.
 */
export const PRESENT_LOCK = 74_201_031;
export const SOLE_LOCK = 74_201_032;
export const INGEST_JOIN_CHANNEL = 'uiot_ingest_join';

/** The first statement of a batch of an instance that is not the one writer: one row unless one exists. */
const FENCE_STATEMENT = sql`select 1 as fenced where pg_try_advisory_xact_lock_shared(${SOLE_LOCK})`;

/** What the lease needs of the ingest pipeline. */
export interface SoleWriterPipeline {
  /** This process is now the one writer: repeats may be planned. */
  becomeSole(): void;
  /** No more repeats: resolves once those under way are done and their times written. */
  yieldRepeats(): Promise<void>;
  /**
   * Runs `work` with no batch under way, and none started until it is done; null, without running it, when
   * the batches under way have not ended within `withinMs`.
   */
  whileIdle<T>(work: () => Promise<T>, withinMs: number): Promise<T | null>;
}

/** How the pipeline's batches keep out of a one writer's way. */
export interface WriterFence {
  /** The statement a batch's transaction starts with (it answers no row while another is the one writer), or null. */
  statement(): SQL | null;
  /** A batch found another instance to be the one writer. */
  refused(): void;
}

/** A batch refused because another instance is the one writer: it is written again once that one stepped down. */
export class FencedBatchError extends Error {
  override name = 'FencedBatchError';
  constructor() {
    super('another server instance is the one writer of ingest; it has been asked to step down');
  }
}

export interface SoleWriterOptions {
  /** The connection settings of the pool: the lease holds a connection of its own. */
  connection: pg.ClientConfig;
  /** Where a fenced batch's request to step down is sent from (the pool). */
  db: Db;
  logger: ModuleLogger;
  /** Whether this instance leaves repeats unwritten when it is alone (`INGEST_REPEAT_SECONDS` above 0). */
  wantsSole: boolean;
  /** How often an instance looks whether it is alone, and its connection is checked (default 5 s). */
  checkMs?: number;
  /** How often a newcomer asks the one writer to step down while it waits (default 250 ms). */
  askMs?: number;
}

const APPLICATION_NAME = 'uiot-ingest-writers';
/** How long becoming the one writer waits for this process's batches under way to end. */
const IDLE_WITHIN_MS = 2_000;
/** How long the stop waits for a step under way. */
const CLOSE_WITHIN_MS = 5_000;
const MAX_RECONNECT_MS = 30_000;

/** The lease of one server instance. `fence` goes to the pipeline before `start`. */
export class SoleWriterLease {
  private client: pg.Client | null = null;
  /** The backend of the last connection, ended on the next one should the database still keep it. */
  private lastBackend: { pid: number; started: string } | null = null;
  /** Not before this time (performance.now) does it try to become the one writer again after stepping down. */
  private calmUntil = 0;
  private heartbeat: NodeJS.Timeout | null = null;
  private state: 'away' | 'present' | 'sole' = 'away';
  /** Whether SOLE is held exclusive: this process's batches need no fence. */
  private holdsSole = false;
  private closed = false;
  private pipeline: SoleWriterPipeline | null = null;
  private readonly id = randomUUID();
  /** The lease's steps, one at a time. */
  private steps: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private delay: number;
  private readonly checkMs: number;
  private readonly askMs: number;
  private readonly logger: ModuleLogger;

  readonly fence: WriterFence = {
    statement: () => (this.holdsSole ? null : FENCE_STATEMENT),
    refused: () => void this.ask(this.options.db).catch(() => undefined),
  };

  constructor(private readonly options: SoleWriterOptions) {
    this.checkMs = Math.max(10, options.checkMs ?? 5_000);
    this.askMs = Math.max(10, options.askMs ?? 250);
    this.delay = this.askMs;
    this.logger = options.logger;
  }

  /** Whether this instance is the one writer. */
  get sole(): boolean {
    return this.state === 'sole';
  }

  /** Whether this instance is known to the others (present or the one writer). */
  get present(): boolean {
    return this.state !== 'away';
  }

  /**
   * Joins the writers in the background (until this instance is present its batches are fenced, which keeps
   * them out of a one writer's way), and looks every `checkMs` whether it is alone. Answers the stop.
   */
  start(pipeline: SoleWriterPipeline): () => Promise<void> {
    this.pipeline = pipeline;
    this.step(() => this.join());
    this.step(() => this.check());
    this.timer = setInterval(() => this.step(() => this.check()), this.checkMs);
    this.timer.unref();
    // Apart from the steps, which may wait for ingest: the database sees a live lease at least this often.
    this.heartbeat = setInterval(() => {
      const client = this.client;
      client?.query('select 1').catch((error: Error) => client.emit('error', error));
    }, this.checkMs);
    this.heartbeat.unref();
    return () => this.close();
  }

  private step(work: () => Promise<void>): void {
    this.steps = this.steps.then(work).catch((error: unknown) => {
      this.logger.error({ error: errorMessage(error) }, 'ingest writers: a step failed');
    });
  }

  /** Connects, listens, and asks until it holds PRESENT shared. A failure leaves it away, to try again. */
  private async join(): Promise<void> {
    if (this.closed || this.state !== 'away') return;
    const client = new pg.Client({
      ...this.options.connection,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      connectionTimeoutMillis: 10_000,
      // Long enough for a database that stalls; dropping the lease over a slow query would end the one
      // writer's era while its batches may still be under way.
      query_timeout: 60_000,
      application_name: APPLICATION_NAME,
    });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      client.removeAllListeners('notification');
      client.end().catch(() => undefined);
      if (this.client === client) this.lose(error);
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (note) => {
      if (note.channel === INGEST_JOIN_CHANNEL && note.payload && note.payload !== this.id) {
        this.step(() => this.stepDown('another server instance joins ingest'));
      }
    });
    try {
      await client.connect();
      this.client = client;
      // The database lets the locks go within about 25 s of a connection that went silent, or whose peer
      // stopped acknowledging what it sends (the notices of instances asking to get in).
      await client.query(
        'set tcp_keepalives_idle = 10; set tcp_keepalives_interval = 5; set tcp_keepalives_count = 3',
      );
      // PostgreSQL 12 and later.
      await client.query('set tcp_user_timeout = 25000').catch(() => undefined);
      await client.query(`LISTEN ${INGEST_JOIN_CHANNEL}`);
      const backend = (
        await client.query<{ pid: number; started: string }>(
          'select pid, backend_start::text as started from pg_stat_activity where pid = pg_backend_pid()',
        )
      ).rows[0]!;
      const last = this.lastBackend;
      if (last !== null && last.pid !== backend.pid) {
        // This process's previous connection, should the database not have noticed it was lost.
        await client
          .query(
            'select pg_terminate_backend(pid) from pg_stat_activity ' +
              'where pid = $1 and backend_start::text = $2 and application_name = $3',
            [last.pid, last.started, APPLICATION_NAME],
          )
          .catch(() => undefined);
      }
      this.lastBackend = backend;
      const since = performance.now();
      let told = false;
      for (;;) {
        if (this.closed || lost) return;
        const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock_shared($1) as ok', [
          PRESENT_LOCK,
        ]);
        if (rows[0]!.ok) break;
        if (!told && performance.now() - since > 10_000) {
          told = true;
          this.logger.warn({}, 'ingest writers: waiting for the instance ingesting alone to step down');
        }
        await this.ask(client);
        await new Promise((resolve) => setTimeout(resolve, this.askMs));
      }
    } catch (error) {
      onLost(error as Error);
      if (this.client === null) this.scheduleJoin();
      return;
    }
    this.state = 'present';
    this.delay = this.askMs;
    this.logger.info({}, 'ingest writers: this instance ingests alongside any others');
  }

  private scheduleJoin(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.step(() => this.join());
    }, this.delay);
    this.retry.unref();
    this.delay = Math.min(this.delay * 2, MAX_RECONNECT_MS);
  }

  /** Asks the one writer, if any, to step down. */
  private async ask(via: pg.Client | Db): Promise<void> {
    if (via instanceof pg.Client) {
      await via.query('select pg_notify($1, $2)', [INGEST_JOIN_CHANNEL, this.id]);
    } else {
      await via.execute(sql`select pg_notify(${INGEST_JOIN_CHANNEL}, ${this.id})`);
    }
  }

  /** The lease's connection is gone, and the locks with it: repeats stop at once, and it joins again. */
  private lose(error?: Error): void {
    this.client = null;
    const wasSole = this.state === 'sole';
    this.state = 'away';
    this.holdsSole = false;
    if (this.closed) return;
    this.logger.warn(
      { error: error?.message ?? 'connection ended', wasSole },
      'ingest writers: the lease lost its database connection; joining again',
    );
    const yielded = wasSole ? this.pipeline?.yieldRepeats() : undefined;
    this.step(async () => {
      await yielded?.catch(() => undefined);
      this.scheduleJoin();
    });
  }

  /** Checks the connection, and becomes the one writer when alone and wanting to. */
  private async check(): Promise<void> {
    const client = this.client;
    if (this.closed || !client || this.state === 'away') return;
    try {
      if (this.state === 'sole' || !this.options.wantsSole || performance.now() < this.calmUntil) return;
      const alone = (
        await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [PRESENT_LOCK])
      ).rows[0]!.ok;
      if (!alone) return;
      // Batches started from here on must know that they need no fence (their own would refuse them). A
      // batch that does not end soon (a database that stalls) leaves it for the next look.
      const took = await this.pipeline!.whileIdle(async () => {
        // Ingest is held meanwhile: a lease connection that does not answer soon is dropped.
        let timer: NodeJS.Timeout | undefined;
        const sole = await Promise.race([
          client
            .query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [SOLE_LOCK])
            .then((result) => result.rows[0]!.ok),
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error('the lease connection did not answer')),
              IDLE_WITHIN_MS,
            );
          }),
        ]).finally(() => clearTimeout(timer));
        if (sole && this.client === client) {
          this.holdsSole = true;
          this.state = 'sole';
          this.pipeline!.becomeSole();
        }
        return sole;
      }, IDLE_WITHIN_MS);
      if (took !== true) {
        await client.query('select pg_advisory_unlock($1)', [PRESENT_LOCK]);
        return;
      }
      this.logger.info(
        {},
        'ingest writers: this instance ingests alone; repeated reports are left unwritten',
      );
    } catch (error) {
      // A query that failed or timed out: the connection is not to be trusted.
      client.emit('error', error as Error);
    }
  }

  /** Stops leaving repeats unwritten and lets the others in. */
  private async stepDown(reason: string): Promise<void> {
    const client = this.client;
    if (this.state !== 'sole' || !client) return;
    this.logger.info({ reason }, 'ingest writers: no longer the one writer; every report is written');
    await this.pipeline!.yieldRepeats();
    if (this.client !== client) return;
    try {
      await client.query('select pg_advisory_unlock($1)', [SOLE_LOCK]);
      this.holdsSole = false;
      await client.query('select pg_advisory_unlock($1)', [PRESENT_LOCK]);
      this.state = 'present';
      // The newcomer gets in before this instance looks again.
      this.calmUntil = performance.now() + 2 * this.checkMs;
    } catch (error) {
      client.emit('error', error as Error);
    }
  }

  private async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.retry) clearTimeout(this.retry);
    this.timer = null;
    this.heartbeat = null;
    this.retry = null;
    // A step waiting for a database that does not answer does not hold the shutdown: ending the connection
    // lets the locks go.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.steps,
      new Promise((resolve) => {
        timer = setTimeout(resolve, CLOSE_WITHIN_MS);
      }),
    ]);
    clearTimeout(timer);
    const client = this.client;
    this.client = null;
    this.state = 'away';
    if (client) {
      client.removeAllListeners('notification');
      await client.end().catch(() => undefined);
    }
  }
}
