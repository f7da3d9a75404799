import { App } from 'antd';
import { useEffect } from 'react';
import { feedback } from './feedback.ts';

/** Hands antd's context-aware message and notification to `feedback`; render once inside antd's `App`. */
export function FeedbackBridge() {
  const { message, notification } = App.useApp();
  useEffect(() => {
    feedback.message = message;
    feedback.notification = notification;
  }, [message, notification]);
  return null;
}
