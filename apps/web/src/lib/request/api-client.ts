import type { Endpoint, EndpointBody, EndpointQuery, EndpointResult } from '@uiot/contracts';
import { API_PREFIX, UPLOAD_FIELD } from '@uiot/contracts';
import { useSyncExternalStore } from 'react';
import type { z } from 'zod';
import {
  type DownloadResult,
  type PendingSnapshot,
  type QueryValue,
  RequestClient,
  type RequestClientConfig,
  type RequestOptions,
} from './request-client.ts';

export type AnyEndpoint = Endpoint<z.ZodType | undefined, z.ZodType | undefined, z.ZodType>;

type QueryPart<E> = EndpointQuery<E> extends undefined ? { query?: undefined } : { query: EndpointQuery<E> };
type BodyPart<E> = EndpointBody<E> extends undefined ? { body?: undefined } : { body: EndpointBody<E> };
export type CallInput<E> = QueryPart<E> & BodyPart<E>;
type CallArgs<E> =
  EndpointQuery<E> extends undefined
    ? EndpointBody<E> extends undefined
      ? [input?: CallInput<E>, options?: RequestOptions]
      : [input: CallInput<E>, options?: RequestOptions]
    : [input: CallInput<E>, options?: RequestOptions];

const IDLE: PendingSnapshot = { count: 0, since: null };
let client: RequestClient | null = null;
const configuredListeners = new Set<() => void>();

/** Set up once at start-up, when the runtime configuration is known. */
export function configureRequests(
  config: Omit<RequestClientConfig, 'baseUrl'> & { baseUrl?: string },
): RequestClient {
  client = new RequestClient({ ...config, baseUrl: config.baseUrl ?? API_PREFIX });
  for (const listener of configuredListeners) listener();
  return client;
}

export function requestClient(): RequestClient {
  if (!client) throw new Error('The request layer is used before configureRequests()');
  return client;
}

/** Calls an endpoint of the contract and resolves to its typed `data`. */
export function call<E extends AnyEndpoint>(
  endpoint: E,
  ...[input, options]: CallArgs<E>
): Promise<EndpointResult<E>> {
  return requestClient().request<EndpointResult<E>>(
    {
      method: endpoint.method,
      path: endpoint.path,
      query: input?.query as Record<string, QueryValue> | undefined,
      body: input?.body,
    },
    options,
  );
}

/**
 * Calls an upload endpoint (spec §7: uploads are multipart): the file goes as `multipart/form-data`, in
 * the part the contract names, with its name; the query as for `call`. Resolves to the typed `data`.
 */
export function upload<E extends AnyEndpoint>(
  endpoint: E,
  input: { query?: EndpointQuery<E>; file: Blob; fileName: string },
  options?: RequestOptions,
): Promise<EndpointResult<E>> {
  const form = new FormData();
  form.append(UPLOAD_FIELD, input.file, input.fileName);
  return requestClient().request<EndpointResult<E>>(
    {
      method: endpoint.method,
      path: endpoint.path,
      query: input.query as Record<string, QueryValue> | undefined,
      body: form,
    },
    options,
  );
}

/**
 * Calls an endpoint that answers a file (an export, e.g. CSV): the file as a blob with its server-given
 * name, or the `data` of the envelope when the server answered one. Failures throw as with `call`.
 */
export function download<E extends AnyEndpoint>(
  endpoint: E,
  ...[input, options]: CallArgs<E>
): Promise<DownloadResult> {
  return requestClient().download(
    {
      method: endpoint.method,
      path: endpoint.path,
      query: input?.query as Record<string, QueryValue> | undefined,
      body: input?.body,
    },
    options,
  );
}

/** TanStack Query options for a GET endpoint; the query's signal cancels the call when it is dropped. */
export function endpointQuery<E extends AnyEndpoint>(
  endpoint: E,
  query?: EndpointQuery<E>,
  options: RequestOptions = {},
) {
  return {
    queryKey: [endpoint.path, query ?? null] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      requestClient().request<EndpointResult<E>>(
        {
          method: endpoint.method,
          path: endpoint.path,
          query: query as Record<string, QueryValue> | undefined,
        },
        { ...options, signal },
      ),
  };
}

export function cancelAllRequests(options?: Parameters<RequestClient['cancelAll']>[0]): void {
  client?.cancelAll(options);
}

function subscribePending(listener: () => void): () => void {
  let unsubscribe = client?.subscribePending(listener);
  const onConfigured = () => {
    unsubscribe?.();
    unsubscribe = client?.subscribePending(listener);
    listener();
  };
  configuredListeners.add(onConfigured);
  return () => {
    configuredListeners.delete(onConfigured);
    unsubscribe?.();
  };
}

/** Pending calls that count for the loading overlay. */
export function usePendingRequests(): PendingSnapshot {
  return useSyncExternalStore(
    subscribePending,
    () => client?.pendingState ?? IDLE,
    () => IDLE,
  );
}
