import { ALL_ENDPOINTS, API_PREFIX, type Endpoint, isMutating } from '@uiot/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** The operation log's `methodName` of an endpoint, as the server's op-log hook writes it: module + path. */
export function operationName(endpoint: Pick<Endpoint, 'module' | 'path'>): string {
  return `${endpoint.module}${endpoint.path}`;
}

/** Every operation the log records (the mutating endpoints): each has a title in namespace `operation`. */
export const LOGGED_OPERATIONS: readonly string[] = ALL_ENDPOINTS.filter(isMutating).map(operationName);

const OPERATION_BY_URL = new Map(
  ALL_ENDPOINTS.filter(isMutating).map((endpoint) => [
    `${API_PREFIX}${endpoint.path}`,
    operationName(endpoint),
  ]),
);

/** The operation of a logged URL (`/api/params/save`), for entries that carry no `methodName`. */
export function operationNameOfUrl(url: string | null | undefined): string | undefined {
  return url ? OPERATION_BY_URL.get(url.split('?')[0] ?? url) : undefined;
}

export interface LoggedOperation {
  methodName?: string | null;
  url?: string | null;
  /** The endpoint's English summary, stored with the entry: shown when the console has no title. */
  methodDesc: string;
}

/**
 * The title of a logged operation in the console's language (namespace `operation`, keyed by
 * `methodName`), falling back to the stored English description (an operation of another version).
 */
export function useOperationTitle(): (entry: LoggedOperation) => string {
  const { t, i18n } = useTranslation('operation');
  return useCallback(
    (entry) => {
      const name = entry.methodName || operationNameOfUrl(entry.url);
      return name && i18n.exists(name, { ns: 'operation' }) ? t(name) : entry.methodDesc;
    },
    [t, i18n],
  );
}
