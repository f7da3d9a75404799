import { App } from 'antd';
import { useEffect } from 'react';
import { installFeedbackSink } from './feedback.ts';

/**
 * Shows feedback with antd's context-aware message and notification (the console's theme and locale) while
 * it is mounted; render once inside antd's `App`.
 */
export function FeedbackBridge() {
  const { message, notification } = App.useApp();
  useEffect(
    () =>
      installFeedbackSink({
        toast: (kind, text, seconds) => void message[kind]({ content: text, duration: seconds }),
        notify: (kind, title, description, seconds) =>
          notification[kind]({
            title,
            description,
            duration: seconds,
            placement: 'bottomRight',
            style: { whiteSpace: 'pre-line' },
          }),
      }),
    [message, notification],
  );
  return null;
}
