/** Spec §9: toast 3 s (5 s for errors); notification 3 s (6 s for errors), bottom right. */
export const TOAST_SECONDS = 3;
export const TOAST_ERROR_SECONDS = 5;
export const NOTIFICATION_SECONDS = 3;
export const NOTIFICATION_ERROR_SECONDS = 6;

export type FeedbackKind = 'success' | 'info' | 'warning' | 'error';

/**
 * Where toasts (a short line at the top) and notifications (a card at the bottom right, title and text)
 * are shown. Code outside components, such as the request layer, shows them through `feedback`; the login
 * page has a light sink of its own, the console's antd `App` replaces it while it is mounted.
 */
export interface FeedbackSink {
  toast(kind: FeedbackKind, text: string, seconds: number): void;
  notify(kind: FeedbackKind, title: string, description: string | undefined, seconds: number): void;
}

let sink: FeedbackSink | null = null;

/** Shows feedback through `next` from now on; returns the way back to the previous sink. */
export function installFeedbackSink(next: FeedbackSink): () => void {
  const previous = sink;
  sink = next;
  return () => {
    if (sink === next) sink = previous;
  };
}

export function toastError(text: string): void {
  sink?.toast('error', text, TOAST_ERROR_SECONDS);
}

export function toastSuccess(text: string): void {
  sink?.toast('success', text, TOAST_SECONDS);
}

export function toastWarning(text: string): void {
  sink?.toast('warning', text, TOAST_SECONDS);
}

export function notify(kind: FeedbackKind, title: string, description?: string): void {
  sink?.notify(
    kind,
    title,
    description,
    kind === 'error' ? NOTIFICATION_ERROR_SECONDS : NOTIFICATION_SECONDS,
  );
}
