/** What a module needs of the server's logger; pino's child loggers are one. */
export interface ModuleLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** A logger that drops everything (tests, benchmarks). */
export const SILENT_LOGGER: ModuleLogger = { info: () => {}, warn: () => {}, error: () => {} };

/** What was thrown, as a log entry carries it. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
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
