import { type CommandState, type Lang, translateResult, type UserNotification } from '@uiot/contracts';
import type { TFunction } from 'i18next';

export type NotificationStyle = 'success' | 'info' | 'warning' | 'error';

/** How a per-user notification is shown: its style, title and optional second line. */
export interface NotificationView {
  style: NotificationStyle;
  title: string;
  description?: string;
}

/** A failed command is an error; one that ran out of time a warning; one that worked a success. */
const COMMAND_STATE_STYLES: Record<CommandState, NotificationStyle> = {
  Success: 'success',
  NB_Successful: 'success',
  Failure: 'error',
  NB_Failed: 'error',
  NB_Expired: 'warning',
  NB_Timeout: 'warning',
  NB_Canceled: 'info',
  Waitting: 'info',
  NB_Pending: 'info',
  NB_Send: 'info',
  NB_Delivered: 'info',
  NB_UnKnow: 'info',
};

/** The translated notification; a failure's result code is translated here, never sent as text. */
export function describeNotification(
  notification: UserNotification,
  t: TFunction,
  lang: Lang,
): NotificationView {
  const title = t('realtime:commandFinished', {
    name: notification.name,
    device: notification.deviceName ?? notification.deviceId,
    state: t(`iot:command.state.${notification.state}`),
  });
  const failure = notification.failure
    ? translateResult(notification.failure.code, lang, notification.failure.params)
    : undefined;
  return {
    style: COMMAND_STATE_STYLES[notification.state],
    title,
    ...(failure ? { description: failure } : {}),
  };
}
