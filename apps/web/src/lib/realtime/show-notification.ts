import type { UserNotification } from '@uiot/contracts';
import { notify } from '../feedback/feedback.ts';
import { currentLang, i18n } from '../i18n/i18n.ts';
import { describeNotification } from './notification-text.ts';

/** Spec §9: a notification stays 3 s (an error 6 s), bottom right. */
export function showNotification(notification: UserNotification): void {
  const lang = currentLang();
  const view = describeNotification(notification, i18n.getFixedT(lang), lang);
  notify(view.style, view.title, view.description);
}
