/** Whether a database error (possibly wrapped by drizzle) is a unique-constraint violation (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  return hasSqlState(error, '23505');
}

/** Whether a database error is a violation of this unique constraint (named as in the schema). */
export function isUniqueViolationOf(error: unknown, constraint: string): boolean {
  return hasSqlState(error, '23505', constraint);
}

/**
 * Whether a database error is a foreign-key violation: a row still refers to the one being deleted, e.g. a
 * device added at the same moment to a device type being deleted. SQLSTATE 23503; a key declared `on delete
 * restrict` answers 23001 (restrict_violation) on PostgreSQL 16 and later (PGlite), 23503 before.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  return hasSqlState(error, '23503') || hasSqlState(error, '23001');
}

/** Whether the error, or one it was caused by, has this SQLSTATE (and names this constraint, when given). */
function hasSqlState(error: unknown, state: string, constraint?: string): boolean {
  for (let e = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const fields = e as { code?: unknown; constraint?: unknown };
    if (fields.code === state && (constraint === undefined || fields.constraint === constraint)) return true;
  }
  return false;
}
