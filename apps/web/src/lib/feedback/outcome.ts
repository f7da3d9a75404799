import { recordError } from '../error-log/error-log.ts';
import { currentLang, i18n } from '../i18n/i18n.ts';
import { failureReason, isRequestError } from '../request/index.ts';
import { toastError, toastSuccess } from './feedback.ts';

/**
 * The actions with a generic success and failure text (spec §8), in `common:outcome.<action>`. A failure is
 * shown as "{failure text}: {error}", one translated template per action.
 */
export const OUTCOME_ACTIONS = [
  'create',
  'update',
  'save',
  'delete',
  'import',
  'export',
  'upload',
  'authorise',
  'audit',
  'commit',
  'reset',
  'revoke',
  'cancel',
  'forceEnd',
  'register',
  'unregister',
  'resetImei',
  'sendCommand',
  'resetDevice',
  'backup',
  'restore',
  'generate',
  'disable',
] as const;
export type OutcomeAction = (typeof OUTCOME_ACTIONS)[number];

/**
 * The reason of any failure: a request error's short text (with its field issues when asked, for failures
 * that no form shows), or an error's message.
 */
export function errorReason(error: unknown, { withIssues = false }: { withIssues?: boolean } = {}): string {
  if (isRequestError(error)) {
    const reason = failureReason(error, i18n.t, currentLang());
    if (!withIssues || error.issues.length === 0) return reason;
    return [reason, ...error.issues.map((issue) => issue.message)].join('; ');
  }
  return error instanceof Error ? error.message : String(error);
}

export function toastSucceeded(action: OutcomeAction): void {
  toastSuccess(i18n.t(`common:outcome.${action}.success`));
}

/**
 * Shows "{failure text}: {error}" and keeps it in the error log. Use it with calls made `silent: true`, so
 * the request layer does not show the same failure again. Cancelled calls and an expired session (handled
 * by the request layer) show nothing.
 */
export function toastFailed(
  action: OutcomeAction,
  error: unknown,
  options: { withIssues?: boolean } = {},
): void {
  if (
    isRequestError(error) &&
    (error.kind === 'cancelled' || error.isSessionExpired || error.isPasswordChangeRequired)
  ) {
    return;
  }
  const text = i18n.t(`common:outcome.${action}.failure`, { error: errorReason(error, options) });
  toastError(text);
  recordError({
    source: 'request',
    title: text,
    text,
    ...(isRequestError(error) ? { detail: `${error.method} ${error.url}` } : {}),
  });
}
