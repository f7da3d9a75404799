// @ts-check
/**
 * The statements of the embedded database thread (pglite-worker.mjs) that read or write rows, kept
 * prepared. PGlite's own `query` makes six calls into the engine for every statement (parse, describe the
 * parameters, bind, describe the rows, execute, sync), and PostgreSQL parses and analyses the text each
 * time. A server sends the same few hundred texts over and over, with other parameters: here a text is
 * parsed once under a name of its own (with its parameter types), and later runs of it are one call of
 * bind, describe, execute and sync. Planning is PostgreSQL's as for any prepared statement (a generic plan
 * once it costs no more than the custom ones).
 *
 * Behaves as PGlite's `query`: the same parameter serializers and row parsers, the same locks (a statement
 * outside a transaction waits for an open one), the same errors (naming their statement). The least
 * recently used statement beyond `limit` is closed (with the next preparation). The types a statement was
 * prepared with hold until the schema changes: the thread calls `around` with every statement that goes
 * PGlite's own way, and one that may change the schema drops every kept statement. One that the engine
 * no longer has, or whose result columns changed all the same, is prepared again outside a transaction
 * block (inside one its error has aborted the block, as any error does).
 */
import { parse, protocol } from '@electric-sql/pglite';

const { serialize } = protocol;

/** Statements kept prepared at most. */
const CACHED_STATEMENTS = 256;

/** What is kept: statements on rows. DDL, SET, transaction control and the like go PGlite's own way. */
const ON_ROWS = /^\s*(?:select|insert|update|delete|with|values)\b/i;
/** Longer texts (bulk statements whose text changes with their number of rows) go PGlite's own way. */
export const LONGEST_KEPT = 10_000;
/**
 * A statement that may change the types a kept statement was prepared with (its parameters', its
 * columns') or close prepared statements: every kept statement is dropped around it.
 */
const SCHEMA_CHANGE = /\b(?:alter|create|drop|deallocate|discard)\b/i;

/** The number in the next statement's name: names are unique in the thread, whichever cache prepares. */
let nextName = 1;

/** SQLSTATE of a prepared statement that does not exist (closed by DEALLOCATE). */
const NO_SUCH_STATEMENT = '26000';
/** SQLSTATE (feature not supported) of "cached plan must not change result type", after a schema change. */
const FEATURE_NOT_SUPPORTED = '0A000';

/** Whether `error` says that the prepared statement, not the statement's text, has to be made again. */
function isStale(/** @type {unknown} */ error) {
  const code = /** @type {{ code?: unknown }} */ (error)?.code;
  return (
    code === NO_SUCH_STATEMENT ||
    (code === FEATURE_NOT_SUPPORTED && /cached plan/i.test(/** @type {Error} */ (error).message))
  );
}

/**
 * @typedef {import('@electric-sql/pglite').PGlite} PGlite
 * @typedef {import('@electric-sql/pglite').QueryOptions} QueryOptions
 * @typedef {{ name: string, types: number[] }} Prepared
 */

export class StatementCache {
  /** @type {Map<string, Prepared>} by text, least recently used first */
  #statements = new Map();
  /** Names of statements left out of the cache, closed with the next preparation. */
  /** @type {string[]} */
  #toClose = [];

  constructor(/** @type {PGlite} */ database, limit = CACHED_STATEMENTS) {
    this.database = database;
    this.limit = Math.max(1, limit);
  }

  /** How many statements are kept prepared now. */
  get size() {
    return this.#statements.size;
  }

  /** Whether `sql` is run through the cache. */
  static accepts(/** @type {string} */ sql) {
    return sql.length <= LONGEST_KEPT && ON_ROWS.test(sql);
  }

  /**
   * To be called before and after a statement that goes PGlite's own way runs: one that may change the
   * schema drops every kept statement (closed with the next preparation).
   */
  around(/** @type {string} */ sql) {
    if (!SCHEMA_CHANGE.test(sql)) return;
    for (const [text, statement] of this.#statements) this.#forget(text, statement);
  }

  /**
   * Runs `sql` with `params` as PGlite's `query` would: `inTransaction` when it runs inside PGlite's
   * `transaction` (whose lock is then held already).
   * @param {string} sql
   * @param {unknown[]} params
   * @param {QueryOptions} options
   * @param {boolean} inTransaction
   */
  async query(sql, params, options, inTransaction) {
    const db = this.database;
    await db._checkReady();
    if (inTransaction) return db._runExclusiveQuery(() => this.#run(sql, params, options));
    return db._runExclusiveTransaction(() =>
      db._runExclusiveQuery(async () => {
        const result = await this.#run(sql, params, options);
        await db.syncToFs();
        return result;
      }),
    );
  }

  /**
   * @param {string} sql
   * @param {unknown[]} params
   * @param {QueryOptions} options
   */
  async #run(sql, params, options) {
    try {
      return await this.#runKept(sql, params, options);
    } catch (error) {
      // As PGlite's own errors name their statement.
      if (error instanceof Error && 'code' in error) Object.assign(error, { query: sql });
      throw error;
    }
  }

  /**
   * @param {string} sql
   * @param {unknown[]} params
   * @param {QueryOptions} options
   */
  async #runKept(sql, params, options) {
    let statement = this.#statements.get(sql);
    if (statement) {
      this.#statements.delete(sql);
      this.#statements.set(sql, statement);
    } else {
      statement = await this.#prepare(sql);
    }
    try {
      return await this.#execute(statement, params, options);
    } catch (error) {
      if (!isStale(error)) throw error;
      this.#forget(sql, statement);
      // Inside a transaction block the error has aborted it: it cannot run again there.
      if (this.database.isInTransaction()) throw error;
      return this.#execute(await this.#prepare(sql), params, options);
    }
  }

  /** @param {string} sql */
  async #prepare(sql) {
    const name = `#${nextName++}`;
    const parts = this.#toClose.map((closed) => serialize.close({ type: 'S', name: closed }));
    this.#toClose = [];
    parts.push(
      serialize.parse({ name, text: sql }),
      serialize.describe({ type: 'S', name }),
      serialize.sync(),
    );
    const messages = await this.database.execProtocolStream(Buffer.concat(parts), { syncToFs: false });
    /** @type {Prepared} */
    const statement = { name, types: parse.parseDescribeStatementResults(messages) };
    this.#statements.set(sql, statement);
    if (this.#statements.size > this.limit) {
      const [oldest, left] = this.#statements.entries().next().value ?? [];
      if (oldest !== undefined && left) this.#forget(oldest, left);
    }
    return statement;
  }

  /**
   * @param {Prepared} statement
   * @param {unknown[]} params
   * @param {QueryOptions} options
   */
  async #execute(statement, params, options) {
    const { serializers, parsers } = this.database;
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const serializer = serializers[/** @type {number} */ (statement.types[i])];
      return serializer ? serializer(param) : String(param);
    });
    const messages = await this.database.execProtocolStream(
      // One buffer: one call into the engine.
      Buffer.concat([
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    return parse.parseResults(messages, parsers, options)[0];
  }

  /**
   * @param {string} sql
   * @param {Prepared} statement
   */
  #forget(sql, statement) {
    if (this.#statements.get(sql) === statement) this.#statements.delete(sql);
    this.#toClose.push(statement.name);
  }
}
