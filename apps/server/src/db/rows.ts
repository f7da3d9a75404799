/**
 * The rows of a raw `db.execute` result: node-postgres answers `{ rows }`, PGlite through drizzle the same,
 * some drivers a bare array.
 */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}
