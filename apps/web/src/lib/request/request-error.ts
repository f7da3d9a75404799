import type { FieldIssue } from '@uiot/contracts';
import { ResultCode } from '@uiot/contracts';

/**
 * Why a call failed. `cancelled` is silent (spec §8); `http` is a non-2xx answer; `business` is an HTTP 200
 * envelope with `success: false`; `empty` is a 2xx answer without an envelope.
 */
export type RequestFailureKind = 'cancelled' | 'timeout' | 'network' | 'http' | 'business' | 'empty';

/**
 * Who cancelled a call: a navigation, a later call to the same URL, the sign-out, the user (overlay button) or
 * the caller's own signal.
 */
export type CancelReason = 'navigation' | 'superseded' | 'signOut' | 'user' | 'caller';

export interface RequestErrorDetails {
  kind: RequestFailureKind;
  method: string;
  /** The called URL without the `_t` timestamp. */
  url: string;
  status?: number;
  code?: number;
  /** The server's (already translated) message, when it sent one. */
  serverMessage?: string;
  /** Field issues of an HTTP 400 answer. */
  issues?: FieldIssue[];
  /** The `data` of a failure's envelope (e.g. the seconds to wait of code 1052). */
  data?: unknown;
  cancelReason?: CancelReason;
  cause?: unknown;
}

export class RequestError extends Error {
  readonly kind: RequestFailureKind;
  readonly method: string;
  readonly url: string;
  readonly status: number | undefined;
  readonly code: number | undefined;
  readonly serverMessage: string | undefined;
  readonly issues: FieldIssue[];
  readonly data: unknown;
  readonly cancelReason: CancelReason | undefined;

  constructor(details: RequestErrorDetails) {
    super(details.serverMessage || `${details.kind} ${details.method} ${details.url}`, {
      cause: details.cause,
    });
    this.name = 'RequestError';
    this.kind = details.kind;
    this.method = details.method;
    this.url = details.url;
    this.status = details.status;
    this.code = details.code;
    this.serverMessage = details.serverMessage;
    this.issues = details.issues ?? [];
    this.data = details.data ?? null;
    this.cancelReason = details.cancelReason;
  }

  /** A missing or expired session: HTTP 401, or a business answer saying so. */
  get isSessionExpired(): boolean {
    if (this.kind === 'http') return this.status === 401;
    if (this.kind === 'business') {
      return this.code === ResultCode.Unauthenticated || this.code === ResultCode.SessionExpired;
    }
    return false;
  }

  /**
   * The server holds the user at the forced first-sign-in password change (HTTP 403, code
   * PasswordChangeRequired): the console shows the change-password dialog instead of the failure.
   */
  get isPasswordChangeRequired(): boolean {
    return this.code === ResultCode.PasswordChangeRequired;
  }
}

export function isRequestError(value: unknown): value is RequestError {
  return value instanceof RequestError;
}

export function isCancelled(value: unknown): boolean {
  return isRequestError(value) && value.kind === 'cancelled';
}
