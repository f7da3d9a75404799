/** What a module needs of the server's logger; pino's child loggers are one. */
export interface ModuleLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** A logger that drops everything (tests, benchmarks). */
export const SILENT_LOGGER: ModuleLogger = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * A failed statement's error as Drizzle builds it: its message lists the statement's parameter values,
 * which may be a password hash, a session token's hash, a device secret's hash or a PIN.
 */
function isFailedQuery(error: unknown): error is Error & { query: string; params: unknown } {
  return (
    error instanceof Error && typeof (error as { query?: unknown }).query === 'string' && 'params' in error
  );
}

/** A statement's failure as PostgreSQL reports it, of SQLSTATE class 22 (data exception). */
function isDataException(error: Error): boolean {
  const sqlState = (error as { code?: unknown }).code;
  return typeof sqlState === 'string' && /^22[0-9A-Z]{3}$/.test(sqlState);
}

/**
 * What was thrown, as a log entry carries it: a failed statement without its parameter values, and a data
 * exception (invalid input syntax, out of range…) without the value it quotes.
 */
export function errorMessage(error: unknown): string {
  if (isFailedQuery(error)) {
    const cause = error.cause instanceof Error ? `: ${errorMessage(error.cause)}` : '';
    return `Failed query: ${error.query}${cause}`;
  }
  if (!(error instanceof Error)) return String(error);
  return isDataException(error) ? error.message.replace(/"(?:[^"\\]|\\.)*"/g, '"…"') : error.message;
}

/**
 * An error as the log writes it (pino's `err` field): type, message and stack, a failed statement's without
 * its parameter values, and the cause, the same way.
 */
export function loggableError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const message = errorMessage(error);
  const frames = error.stack?.split('\n').filter((line) => /^\s+at /.test(line)) ?? [];
  const logged: Record<string, unknown> = {
    type: error.name,
    message,
    stack: [`${error.name}: ${message}`, ...frames].join('\n'),
  };
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') logged.code = code;
  if (error.cause !== undefined) logged.cause = loggableError(error.cause);
  return logged;
}

/**
 * Keeps a failure that may repeat on a hot path (every batch, every publish) to one log entry per interval
 * (default 10 s); the repeats in between are dropped.
 */
export class LogThrottle {
  private loggedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly intervalMs = 10_000,
  ) {}

  /** Whether this occurrence is to be logged; true at most once per interval. */
  allows(): boolean {
    const now = this.now();
    if (now - this.loggedAt < this.intervalMs) return false;
    this.loggedAt = now;
    return true;
  }
}
