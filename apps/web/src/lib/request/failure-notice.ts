import { type Lang, translateResult } from '@uiot/contracts';
import type { TFunction } from 'i18next';
import type { RequestError } from './request-error.ts';

/** HTTP statuses with a text of their own in the error catalogue (spec §8). */
export const CATALOGUED_STATUSES = [
  400, 401, 403, 404, 405, 406, 407, 408, 500, 501, 502, 503, 504, 505,
] as const;

/**
 * What the user is shown for a failed call: a toast (`message`) for business outcomes and the session, a
 * notification for transport failures (status text with status and URL).
 */
export interface FailureNotice {
  channel: 'message' | 'notification';
  /** Notification title. */
  title?: string;
  text: string;
  /** Second line of a notification: method, status and URL. */
  detail?: string;
}

const MAX_LISTED_ISSUES = 3;

function hasUnfilledParameter(text: string): boolean {
  return /\{\w+\}/.test(text);
}

/** Spec §8: code ≥ 500 → the console's own text for the code followed by the code; lower → the server's text. */
export function businessText(error: RequestError, t: TFunction, lang: Lang): string {
  const code = error.code ?? 0;
  if (code >= 500) {
    const own = translateResult(code, lang);
    const text = own && !hasUnfilledParameter(own) ? own : (error.serverMessage ?? t('request:unknownError'));
    return t('request:withCode', { text, code });
  }
  return error.serverMessage ?? t('request:unknownError');
}

function issueLines(error: RequestError): string[] {
  return error.issues.slice(0, MAX_LISTED_ISSUES).map((issue) => `${issue.path}: ${issue.message}`);
}

export function describeFailure(error: RequestError, t: TFunction, lang: Lang): FailureNotice | null {
  const where = t('request:where', { method: error.method, url: error.url });
  switch (error.kind) {
    case 'cancelled':
      return null;
    case 'timeout':
      return {
        channel: 'notification',
        title: t('request:status.408'),
        text: t('request:timeout'),
        detail: where,
      };
    case 'network':
      return {
        channel: 'notification',
        title: t('request:networkError'),
        text: t('request:networkHint'),
        detail: where,
      };
    case 'empty':
      return { channel: 'message', text: t('request:emptyData') };
    case 'business':
      if (error.isSessionExpired) return { channel: 'message', text: t('request:sessionExpired') };
      return { channel: 'message', text: businessText(error, t, lang) };
    case 'http': {
      const status = error.status ?? 0;
      if (status === 401) return { channel: 'message', text: t('request:sessionExpired') };
      const lines = [error.serverMessage, ...issueLines(error)].filter(Boolean);
      const detail = t('request:whereWithStatus', { status, method: error.method, url: error.url });
      if ((CATALOGUED_STATUSES as readonly number[]).includes(status)) {
        return {
          channel: 'notification',
          title: t(`request:status.${status}`),
          text: lines.join('\n'),
          detail,
        };
      }
      return {
        channel: 'notification',
        title: t('request:responseError'),
        text: lines.join('\n') || t('request:unknownError'),
        detail,
      };
    }
  }
}

/**
 * The short reason of a failure, for "{failure text}: {error}" messages (spec §8): the server's or the
 * code's text for business and HTTP answers, the transport text otherwise; '' for a cancelled call.
 */
export function failureReason(error: RequestError, t: TFunction, lang: Lang): string {
  switch (error.kind) {
    case 'cancelled':
      return '';
    case 'timeout':
      return t('request:timeout');
    case 'network':
      return t('request:networkHint');
    case 'empty':
      return t('request:emptyData');
    case 'business':
      return error.isSessionExpired ? t('request:sessionExpired') : businessText(error, t, lang);
    case 'http': {
      const status = error.status ?? 0;
      if (status === 401) return t('request:sessionExpired');
      if (error.serverMessage) return error.serverMessage;
      return (CATALOGUED_STATUSES as readonly number[]).includes(status)
        ? t(`request:status.${status}`)
        : t('request:responseError');
    }
  }
}
