import { type FieldIssue, ResultCode } from '@uiot/contracts';

/** Refusals of an attempt made too soon after failed ones: HTTP 429 with Retry-After. */
const THROTTLED_CODES: ReadonlySet<number> = new Set([ResultCode.LoginLocked, ResultCode.OldPasswordLocked]);

/** HTTP status of a result code: business outcomes are HTTP 200 (ARCHITECTURE §3). */
export function httpStatusOf(code: number): number {
  if (THROTTLED_CODES.has(code)) return 429;
  if (code < 600) return code;
  return 200;
}

/** The one error type of the server: a result code, optional message parameters and data. */
export class AppError extends Error {
  readonly code: ResultCode;
  readonly params: Record<string, string | number>;
  readonly data: unknown;
  readonly httpStatus: number;

  constructor(
    code: ResultCode,
    options: { params?: Record<string, string | number>; data?: unknown; httpStatus?: number } = {},
  ) {
    super(`result code ${code}`);
    this.name = 'AppError';
    this.code = code;
    this.params = options.params ?? {};
    this.data = options.data ?? null;
    this.httpStatus = options.httpStatus ?? httpStatusOf(code);
  }

  static invalid(issues: FieldIssue[]): AppError {
    return new AppError(ResultCode.InvalidInput, { data: issues });
  }
}
