import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';

/** Spec §9: toast 3 s (5 s for errors); notification 3 s (6 s for errors), bottom right. */
export const TOAST_SECONDS = 3;
export const TOAST_ERROR_SECONDS = 5;
export const NOTIFICATION_SECONDS = 3;
export const NOTIFICATION_ERROR_SECONDS = 6;

interface Feedback {
  message: MessageInstance | null;
  notification: NotificationInstance | null;
}

/**
 * antd's message and notification bound to the app's theme and locale (set by the `FeedbackBridge` inside
 * antd's `App`), so that code outside components, such as the request layer, can show them.
 */
export const feedback: Feedback = { message: null, notification: null };

export function toastError(text: string): void {
  feedback.message?.error({ content: text, duration: TOAST_ERROR_SECONDS });
}

export function toastSuccess(text: string): void {
  feedback.message?.success({ content: text, duration: TOAST_SECONDS });
}

export function toastWarning(text: string): void {
  feedback.message?.warning({ content: text, duration: TOAST_SECONDS });
}

export function notifyError(title: string, description: string): void {
  feedback.notification?.error({
    title,
    description,
    duration: NOTIFICATION_ERROR_SECONDS,
    placement: 'bottomRight',
    style: { whiteSpace: 'pre-line' },
  });
}
