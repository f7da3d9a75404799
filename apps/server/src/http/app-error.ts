import { type FieldIssue, ResultCode } from '@uiot/contracts';

/**
 * Result codes above 600 that are not business outcomes: the attempts made too soon after failed ones (429
 * with Retry-After), and refusals of the request itself, answered with their HTTP status.
 */
const HTTP_STATUS: ReadonlyMap<number, number> = new Map([
  [ResultCode.LoginLocked, 429],
  [ResultCode.OldPasswordLocked, 429],
  [ResultCode.InputTooDeep, 400],
  [ResultCode.MalformedRequest, 400],
  [ResultCode.MethodNotAllowed, 405],
  [ResultCode.RequestTimeout, 408],
  [ResultCode.UnsupportedContentType, 415],
  [ResultCode.RequestTooLarge, 431],
]);

/** HTTP status of a result code: business outcomes are HTTP 200 (ARCHITECTURE §3). */
export function httpStatusOf(code: number): number {
  const status = HTTP_STATUS.get(code);
  if (status !== undefined) return status;
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
