import { recordError } from '../lib/error-log/error-log.ts';
import { notify, toastError } from '../lib/feedback/feedback.ts';
import { currentLang, i18n } from '../lib/i18n/index.ts';
import { describeFailure, type RequestError } from '../lib/request/index.ts';

/** Shows a failed call per the error catalogue (spec §8) and keeps it in the error log. */
export function reportFailure(error: RequestError): void {
  const notice = describeFailure(error, i18n.t, currentLang());
  if (!notice) return;
  if (notice.channel === 'message') toastError(notice.text);
  else notify('error', notice.title ?? notice.text, [notice.text, notice.detail].filter(Boolean).join('\n'));
  recordError({
    source: 'request',
    title: notice.title ?? notice.text,
    text: notice.text,
    detail: notice.detail ?? i18n.t('request:where', { method: error.method, url: error.url }),
  });
}
