import type { PGlite, QueryOptions, Results } from '@electric-sql/pglite';

/** Longer texts go PGlite's own way. */
export declare const LONGEST_KEPT: number;

/** The embedded database thread's statements on rows, kept prepared (pglite-statements.mjs). */
export declare class StatementCache {
  constructor(database: PGlite, limit?: number);
  readonly database: PGlite;
  readonly limit: number;
  /** How many statements are kept prepared now. */
  readonly size: number;
  /** Whether `sql` is run through the cache. */
  static accepts(sql: string): boolean;
  /** Before and after a statement that goes PGlite's own way: one that may change the schema drops every kept statement. */
  around(sql: string): void;
  /** Runs `sql` as PGlite's `query` would; `inTransaction` inside PGlite's `transaction`. */
  query<T>(
    sql: string,
    params: unknown[],
    options: QueryOptions,
    inTransaction: boolean,
  ): Promise<Results<T>>;
}
