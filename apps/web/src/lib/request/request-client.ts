import type { Envelope, FieldIssue } from '@uiot/contracts';
import {
  type CancelReason,
  RequestError,
  type RequestErrorDetails,
  type RequestFailureKind,
} from './request-error.ts';

/** Options of one call (spec §7). */
export interface RequestOptions {
  /** Not counted for the loading overlay. */
  noOverlay?: boolean;
  /** Sent without the session token (public calls). */
  noToken?: boolean;
  /**
   * Sent with this bearer token instead of the session's: a control-room board's display session. Its
   * refusals are the caller's to show; they never end the console's session.
   */
  token?: string;
  /** `false`: a later call to the same URL does not cancel this one, nor does a navigation. */
  canCancel?: boolean;
  /** Failure is not shown to the user (the caller handles it). A session expiry is still handled. */
  silent?: boolean;
  /** Cancels the call, e.g. TanStack Query's signal when the query is no longer needed. */
  signal?: AbortSignal;
  /** Milliseconds; defaults to the configured service timeout. */
  timeout?: number;
}

export type QueryValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly (string | number | boolean)[];

export interface RequestSpec {
  method: 'GET' | 'POST';
  /** Path below the base URL, e.g. `/staff/loginCheck`. */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  /** JSON body, or FormData for uploads. */
  body?: unknown;
}

export interface RequestClientConfig {
  /** `/api` in the browser, an absolute URL in tests. */
  baseUrl: string;
  timeout: number;
  /** Token, station and language headers of the moment. */
  headers: (options: { noToken: boolean }) => Record<string, string>;
  /**
   * Shows and records a failure; never called for cancelled calls, silent calls, repeated 401s or a pending
   * forced password change.
   */
  onFailure?: (error: RequestError) => void;
  /** Called once per session when the server says the session is missing or expired. */
  onSessionExpired?: () => void;
  /**
   * Called, instead of `onFailure`, when the server refuses a call until the forced first-sign-in password
   * change is done (e.g. ChangePwdByFirstLogin was switched on during the session).
   */
  onPasswordChangeRequired?: () => void;
  /**
   * Called with the `Date` header of every answer (null when the answer has none or the browser may not read
   * it), when the call was sent and when its answer came: the console's estimate of the server's clock.
   */
  onServerDate?: (dateHeader: string | null, sentAt: number, receivedAt: number) => void;
  fetch?: typeof fetch;
  now?: () => number;
}

export interface PendingSnapshot {
  /** Calls that count for the loading overlay. */
  count: number;
  /** When the count last rose from zero (ms), or null when nothing is pending. */
  since: number | null;
}

interface PendingCall {
  controller: AbortController;
  key: string;
  overlay: boolean;
  cancellable: boolean;
}

const TIMED_OUT = 'timeout';

export function buildQueryString(query: Record<string, QueryValue> | undefined, timestamp?: number): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) params.append(name, String(item));
    } else {
      params.append(name, String(value));
    }
  }
  if (timestamp !== undefined) params.set('_t', String(timestamp));
  const text = params.toString();
  return text ? `?${text}` : '';
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  return typeof value === 'object' && value !== null && 'success' in value && 'code' in value;
}

function issuesOf(data: unknown): FieldIssue[] {
  if (!Array.isArray(data)) return [];
  return data.filter(
    (item): item is FieldIssue =>
      typeof item === 'object' &&
      item !== null &&
      typeof item.path === 'string' &&
      typeof item.message === 'string',
  );
}

type FailFactory = (kind: RequestFailureKind, extra?: Partial<RequestErrorDetails>) => RequestError;

/** What an export call answered: a file, or (for an API that answers in the envelope) its data. */
export type DownloadResult =
  | { kind: 'file'; blob: Blob; fileName: string | null }
  | { kind: 'data'; data: unknown };

/** Reads the envelope of an answer: its `data` on success, a `RequestError` otherwise. */
async function readEnvelope(
  response: Response,
  fail: FailFactory,
  aborted: () => RequestError | undefined,
): Promise<unknown> {
  let payload: unknown = null;
  try {
    const text = await response.text();
    payload = text ? JSON.parse(text) : null;
  } catch (cause) {
    const abort = aborted();
    if (abort) throw abort;
    if (response.ok) throw fail('empty', { status: response.status, cause });
  }
  const envelope = isEnvelope(payload) ? payload : undefined;
  if (!response.ok) {
    throw fail('http', {
      status: response.status,
      code: envelope?.code,
      serverMessage: envelope?.message || undefined,
      issues: issuesOf(envelope?.data),
      data: envelope?.data,
    });
  }
  if (!envelope) throw fail('empty', { status: response.status });
  if (!envelope.success) {
    throw fail('business', {
      status: response.status,
      code: envelope.code,
      serverMessage: envelope.message || undefined,
      issues: issuesOf(envelope.data),
      data: envelope.data,
    });
  }
  return envelope.data;
}

/** The file name of a `Content-Disposition` header (`filename*=UTF-8''…` preferred), or null. */
export function fileNameOfDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:[\w-]+)?'[^']*'([^;]+)/i.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // A malformed encoding: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(header);
  if (!plain) return null;
  const name = plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : (plain[1] ?? '').trim();
  return name || null;
}

/**
 * The one request layer (spec §7, §8): `_t` on GET, JSON bodies, cancellation of an earlier call to the same
 * URL, cancel-all, timeout, the overlay's pending count, and the token-error / logging-out flags that make a
 * session expiry log out exactly once.
 */
export class RequestClient {
  private readonly pending = new Set<PendingCall>();
  private readonly latestByKey = new Map<string, PendingCall>();
  private readonly pendingListeners = new Set<() => void>();
  private pendingSnapshot: PendingSnapshot = { count: 0, since: null };
  /** Set by the first 401 of a session; later 401s stay silent. */
  private tokenError = false;
  /** Set while signing out; failures of that moment stay silent. */
  private loggingOut = false;

  constructor(private readonly config: RequestClientConfig) {}

  /** Calls the API and resolves to the `data` of its envelope. */
  request<T>(spec: RequestSpec, options: RequestOptions = {}): Promise<T> {
    return this.exchange(spec, options, 'application/json', async (response, fail, aborted) => {
      return (await readEnvelope(response, fail, aborted)) as T;
    });
  }

  /**
   * Calls an API that answers a file (an export): resolves to the file as a blob with the name the server
   * gave it. An answer in the envelope is read as by `request`: a failure (e.g. export too large) throws, a
   * success resolves to its `data`.
   */
  download(spec: RequestSpec, options: RequestOptions = {}): Promise<DownloadResult> {
    return this.exchange(
      spec,
      options,
      'text/csv, application/octet-stream, application/json;q=0.9, */*;q=0.8',
      async (response, fail, aborted): Promise<DownloadResult> => {
        const type = response.headers.get('content-type') ?? '';
        if (!response.ok || /[/+]json\b/i.test(type)) {
          return { kind: 'data', data: await readEnvelope(response, fail, aborted) };
        }
        let blob: Blob;
        try {
          blob = await response.blob();
        } catch (cause) {
          throw aborted() ?? fail('network', { cause });
        }
        return {
          kind: 'file',
          blob,
          fileName: fileNameOfDisposition(response.headers.get('content-disposition')),
        };
      },
    );
  }

  /**
   * One call: cancellation of the previous call to the same URL, timeout, pending count, headers; `read`
   * turns the response into the result. Failures are reported (spec §8) and rethrown.
   */
  private async exchange<T>(
    spec: RequestSpec,
    options: RequestOptions,
    accept: string,
    read: (response: Response, fail: FailFactory, aborted: () => RequestError | undefined) => Promise<T>,
  ): Promise<T> {
    const cancellable = options.canCancel !== false;
    const key = `${spec.method} ${spec.path}`;
    if (cancellable) this.latestByKey.get(key)?.controller.abort('superseded' satisfies CancelReason);

    const call: PendingCall = {
      controller: new AbortController(),
      key,
      overlay: !options.noOverlay,
      cancellable,
    };
    this.track(call);
    const url = `${this.config.baseUrl}${spec.path}`;
    const now = this.config.now ?? Date.now;
    const target = url + buildQueryString(spec.query, spec.method === 'GET' ? now() : undefined);
    const displayUrl = url + buildQueryString(spec.query);
    const timer = setTimeout(() => call.controller.abort(TIMED_OUT), options.timeout ?? this.config.timeout);
    const forwardCancel = () => call.controller.abort('caller' satisfies CancelReason);
    if (options.signal?.aborted) forwardCancel();
    options.signal?.addEventListener('abort', forwardCancel, { once: true });

    const fail: FailFactory = (kind, extra = {}) =>
      new RequestError({ ...extra, kind, method: spec.method, url: displayUrl });
    const aborted = () => this.abortFailure(call, fail);

    try {
      const isForm = typeof FormData !== 'undefined' && spec.body instanceof FormData;
      const headers: Record<string, string> = {
        Accept: accept,
        ...this.config.headers({ noToken: options.noToken === true || options.token !== undefined }),
        ...(options.token === undefined ? {} : { Authorization: `Bearer ${options.token}` }),
      };
      if (spec.body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
      let response: Response;
      const sentAt = now();
      try {
        response = await (this.config.fetch ?? fetch)(target, {
          method: spec.method,
          headers,
          body:
            spec.body === undefined
              ? undefined
              : isForm
                ? (spec.body as FormData)
                : JSON.stringify(spec.body),
          signal: call.controller.signal,
        });
      } catch (cause) {
        throw aborted() ?? fail('network', { cause });
      }
      this.config.onServerDate?.(response.headers.get('date'), sentAt, now());
      return await read(response, fail, aborted);
    } catch (caught) {
      const error = caught instanceof RequestError ? caught : fail('network', { cause: caught });
      this.report(error, options);
      throw error;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', forwardCancel);
      this.untrack(call);
    }
  }

  /** Cancels every pending call; with `force`, also those made with `canCancel: false`. */
  cancelAll({ force = false, reason = 'navigation' }: { force?: boolean; reason?: CancelReason } = {}): void {
    for (const call of [...this.pending]) {
      if (force || call.cancellable) call.controller.abort(reason);
    }
  }

  /** A new session starts: a later 401 is reported again. */
  markSignedIn(): void {
    this.tokenError = false;
    this.loggingOut = false;
  }

  /** Signing out: cancels everything; failures while it lasts are not reported. */
  beginSignOut(): void {
    this.loggingOut = true;
    this.cancelAll({ force: true, reason: 'signOut' });
  }

  endSignOut(): void {
    this.loggingOut = false;
  }

  get pendingState(): PendingSnapshot {
    return this.pendingSnapshot;
  }

  subscribePending = (listener: () => void): (() => void) => {
    this.pendingListeners.add(listener);
    return () => this.pendingListeners.delete(listener);
  };

  private abortFailure(call: PendingCall, fail: FailFactory): RequestError | undefined {
    const { aborted, reason } = call.controller.signal;
    if (!aborted) return undefined;
    return reason === TIMED_OUT
      ? fail('timeout')
      : fail('cancelled', { cancelReason: reason as CancelReason });
  }

  private report(error: RequestError, options: RequestOptions): void {
    if (error.kind === 'cancelled') return;
    if (options.token !== undefined) {
      if (!options.silent) this.config.onFailure?.(error);
      return;
    }
    if (error.isSessionExpired) {
      if (this.tokenError || this.loggingOut) return;
      this.tokenError = true;
      this.config.onFailure?.(error);
      this.config.onSessionExpired?.();
      return;
    }
    if (this.loggingOut) return;
    if (error.isPasswordChangeRequired) {
      this.config.onPasswordChangeRequired?.();
      return;
    }
    if (options.silent) return;
    this.config.onFailure?.(error);
  }

  private track(call: PendingCall): void {
    this.pending.add(call);
    if (call.cancellable) this.latestByKey.set(call.key, call);
    this.publishPending();
  }

  private untrack(call: PendingCall): void {
    this.pending.delete(call);
    if (this.latestByKey.get(call.key) === call) this.latestByKey.delete(call.key);
    this.publishPending();
  }

  private publishPending(): void {
    const count = [...this.pending].filter((call) => call.overlay).length;
    if (count === this.pendingSnapshot.count) return;
    const since = count === 0 ? null : (this.pendingSnapshot.since ?? (this.config.now ?? Date.now)());
    this.pendingSnapshot = { count, since };
    for (const listener of [...this.pendingListeners]) listener();
  }
}
