// @ts-check
/**
 * The embedded database's own thread (see pglite-thread.ts): PGlite runs here, so that its work does not
 * share one event loop with MQTT, ingest and HTTP. Plain JavaScript, because a worker thread starts
 * without the main thread's loaders (tsx, Vitest).
 *
 * Messages in: `{ id, op, ... }`; answers out: `{ id, ok: true, result }` or `{ id, ok: false, error }`, and
 * `{ listener, payload }` for a notification on a channel listened to.
 * Statements outside a transaction run as they come; PGlite queues them behind an open transaction.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { StatementCache } from './pglite-statements.mjs';

if (!parentPort) throw new Error('pglite-worker.mjs runs as a worker thread');
const port = parentPort;

/** @type {{ dataDir: string | null, startParams: string[] }} */
const { dataDir, startParams } = workerData;

/** Primitive own properties of an error (PostgreSQL's code, constraint, detail, …) survive the thread hop. */
function errorOf(/** @type {unknown} */ error) {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error' };
  /** @type {Record<string, unknown>} */
  const fields = { message: error.message, name: error.name };
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return fields;
}

/** @type {Map<string, Record<number, (value: string) => string>>} */
const parserSets = new Map();
/** Drizzle reads some types as the text PostgreSQL sends: those arrive as a list of type ids. */
function optionsOf(/** @type {{ rowMode?: 'array' | 'object', rawTypes?: number[] }} */ message) {
  /** @type {import('@electric-sql/pglite').QueryOptions} */
  const options = {};
  if (message.rowMode) options.rowMode = message.rowMode;
  if (message.rawTypes && message.rawTypes.length > 0) {
    const key = message.rawTypes.join(',');
    let parsers = parserSets.get(key);
    if (!parsers) {
      parsers = Object.fromEntries(message.rawTypes.map((type) => [type, (/** @type {string} */ v) => v]));
      parserSets.set(key, parsers);
    }
    options.parsers = parsers;
  }
  return options;
}

/**
 * @typedef {{ sql: string, params?: unknown[], rowMode?: 'array' | 'object', rawTypes?: number[] }} Statement
 * @typedef {{ query: (sql: string, params?: unknown[], options?: object) => Promise<unknown>,
 *   exec: (sql: string) => Promise<unknown> }} Runner
 */

/** Statements on rows, kept prepared (set once the database is open). */
/** @type {StatementCache} */
let statements;

/**
 * Runs one statement message on the database or inside a transaction (`on` is then PGlite's transaction).
 */
async function run(/** @type {Runner} */ on, /** @type {any} */ message, inTransaction = false) {
  if (message.op !== 'exec' && StatementCache.accepts(message.sql)) {
    return statements.query(message.sql, message.params ?? [], optionsOf(message), inTransaction);
  }
  statements.around(message.sql);
  try {
    if (message.op === 'exec') return await on.exec(message.sql);
    return await on.query(message.sql, message.params ?? [], optionsOf(message));
  } finally {
    statements.around(message.sql);
  }
}

/** Open transactions: their statements wait in an inbox that the transaction's callback works through. */
/** @type {Map<number, (message: any) => void>} */
const transactions = new Map();

function answer(/** @type {number} */ id, /** @type {unknown} */ result) {
  port.postMessage({ id, ok: true, result });
}
function refuse(/** @type {number} */ id, /** @type {unknown} */ error) {
  port.postMessage({ id, ok: false, error: errorOf(error) });
}

/**
 * An interactive transaction: PGlite's own `transaction`, kept open while the main thread sends its
 * statements, committed or rolled back when it says so.
 */
function begin(/** @type {PGlite} */ db, /** @type {{ id: number, tx: number }} */ message) {
  /** @type {any[]} */
  const inbox = [];
  /** @type {(() => void) | null} */
  let wake = null;
  transactions.set(message.tx, (next) => {
    inbox.push(next);
    wake?.();
  });
  /** @type {any} */
  let end = null;
  db.transaction(async (tx) => {
    answer(message.id, null);
    for (;;) {
      while (inbox.length === 0) await new Promise((resolve) => (wake = () => resolve(undefined)));
      wake = null;
      const next = inbox.shift();
      if (next.op === 'commit') {
        end = next;
        return;
      }
      if (next.op === 'rollback') {
        end = next;
        await tx.rollback();
        return;
      }
      try {
        answer(next.id, await run(tx, next, true));
      } catch (error) {
        refuse(next.id, error);
      }
    }
  }).then(
    () => {
      transactions.delete(message.tx);
      answer(end.id, null);
    },
    (error) => {
      transactions.delete(message.tx);
      // Before the callback ran (BEGIN failed) the begin message is the one waiting for an answer.
      refuse(end ? end.id : message.id, error);
    },
  );
}

/** Channels listened to: listener id → its end. */
/** @type {Map<number, () => Promise<void>>} */
const listeners = new Map();

/** Statements prepared so far: name → text. */
/** @type {Map<string, string>} */
const prepared = new Map();

/**
 * A parameter as an SQL literal for EXECUTE (which takes no bound parameters): strings quoted the standard
 * way (the server runs with standard_conforming_strings on, so only quotes are doubled).
 */
function literal(/** @type {unknown} */ value) {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') {
    if (value.includes('\u0000')) throw new Error('a text value cannot hold a NUL character');
    return `'${value.replaceAll("'", "''")}'`;
  }
  throw new Error(`a prepared statement takes text, numbers, booleans or null, not ${typeof value}`);
}

/**
 * A named statement is parsed and planned once (PREPARE) and then run with EXECUTE: the planning of a large
 * statement costs the embedded engine more than a small batch of rows does.
 */
async function prepare(
  /** @type {PGlite} */ database,
  /** @type {string} */ name,
  /** @type {string} */ sql,
) {
  const known = prepared.get(name);
  if (known === sql) return;
  if (known !== undefined) throw new Error(`the prepared statement ${name} already has another text`);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a statement name: ${name}`);
  await database.exec(`PREPARE ${name} AS ${sql}`);
  prepared.set(name, sql);
}

/** The EXECUTE of a prepared step, its parameters as literals. */
function executeOf(/** @type {{ name?: string, params?: unknown[] }} */ step) {
  return `EXECUTE ${step.name}(${(step.params ?? []).map(literal).join(', ')})`;
}

/**
 * Statements run as one transaction without a trip back to the main thread between them. A step with
 * `expectRowCount` undoes the whole batch when its command tag reports another number of rows (inserted,
 * updated, deleted or selected): the caller then takes the interactive way.
 */
async function batch(
  /** @type {PGlite} */ db,
  /** @type {{ steps: Array<Statement & { name?: string, expectRowCount?: number }> }} */ message,
) {
  for (const step of message.steps) if (step.name) await prepare(db, step.name, step.sql);
  if (message.steps.every((step) => step.name && step.expectRowCount === undefined)) {
    // Prepared statements with nothing to check between them go to PGlite as one simple query, which
    // PostgreSQL runs as one transaction (a failing statement undoes those before it and skips the rest):
    // one call into the engine instead of a BEGIN, a call per statement and a COMMIT (about a millisecond
    // less per batch).
    const text = message.steps.map((step) => executeOf(step)).join(';\n');
    return { done: true, results: await db.exec(text) };
  }
  return db.transaction(async (tx) => {
    const results = [];
    for (const step of message.steps) {
      const result = /** @type {{ rows: unknown[], rowCount?: number, affectedRows?: number }} */ (
        step.name ? (await tx.exec(executeOf(step)))[0] : await run(tx, step, true)
      );
      const count = result.rowCount ?? result.affectedRows ?? result.rows.length;
      if (step.expectRowCount !== undefined && count !== step.expectRowCount) {
        await tx.rollback();
        return { done: false };
      }
      results.push(result);
    }
    return { done: true, results };
  });
}

let db;
try {
  db = dataDir ? await PGlite.create(dataDir, { startParams }) : await PGlite.create({ startParams });
} catch (error) {
  port.postMessage({ id: 0, ok: false, error: errorOf(error) });
  port.close();
}
if (db) {
  const database = db;
  statements = new StatementCache(database);
  /** The batch handed to PGlite last (see 'batch' below). */
  let batches = Promise.resolve();
  // EXECUTE takes its parameters as literals (see `literal`): their quoting relies on this.
  await database.exec('SET standard_conforming_strings = on');
  port.on('message', (/** @type {any} */ message) => {
    if (message.tx !== undefined && message.op !== 'begin') {
      const deliver = transactions.get(message.tx);
      if (deliver) deliver(message);
      else if (message.op === 'rollback') answer(message.id, null);
      else refuse(message.id, new Error('the transaction has ended'));
      return;
    }
    switch (message.op) {
      case 'begin':
        begin(database, message);
        return;
      case 'batch':
        // One batch at a time is handed to PGlite, and the next only after a turn of this thread's event
        // loop (PGlite runs a statement without yielding, so messages wait until it is done): statements
        // that came meanwhile (a console's requests) are queued in PGlite first, and wait for one batch at
        // most, not for every batch queued before them.
        batches = batches
          .then(() => new Promise((resolve) => setImmediate(resolve)))
          .then(() =>
            batch(database, message).then(
              (result) => answer(message.id, result),
              (error) => refuse(message.id, error),
            ),
          );
        return;
      case 'listen':
        // A notification goes out before the answer of the statement that committed it.
        database
          .listen(message.channel, (payload) => port.postMessage({ listener: message.listener, payload }))
          .then(
            (unlisten) => {
              listeners.set(message.listener, unlisten);
              answer(message.id, null);
            },
            (error) => refuse(message.id, error),
          );
        return;
      case 'unlisten': {
        const unlisten = listeners.get(message.listener);
        listeners.delete(message.listener);
        (unlisten ? unlisten() : Promise.resolve()).then(
          () => answer(message.id, null),
          (error) => refuse(message.id, error),
        );
        return;
      }
      case 'close':
        database.close().then(
          () => {
            answer(message.id, null);
            port.close();
          },
          (error) => refuse(message.id, error),
        );
        return;
      default:
        run(database, message).then(
          (result) => answer(message.id, result),
          (error) => refuse(message.id, error),
        );
    }
  });
  port.postMessage({ id: 0, ok: true, result: null });
}
