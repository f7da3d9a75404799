import type { UserNotification } from '@uiot/contracts';
import { feedback, NOTIFICATION_SECONDS, notifyError } from '../feedback/feedback.ts';
import { currentLang, i18n } from '../i18n/i18n.ts';
import { describeNotification } from './notification-text.ts';

/** Spec §9: a notification stays 3 s (an error 6 s), bottom right. */
export function showNotification(notification: UserNotification): void {
  const lang = currentLang();
  const view = describeNotification(notification, i18n.getFixedT(lang), lang);
  if (view.style === 'error') {
    notifyError(view.title, view.description ?? '');
    return;
  }
  feedback.notification?.[view.style]({
    title: view.title,
    description: view.description,
    duration: NOTIFICATION_SECONDS,
    placement: 'bottomRight',
  });
}
