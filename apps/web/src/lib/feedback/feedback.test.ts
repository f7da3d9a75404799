import { describe, expect, it } from 'vitest';
import {
  type FeedbackSink,
  installFeedbackSink,
  NOTIFICATION_ERROR_SECONDS,
  NOTIFICATION_SECONDS,
  notify,
  TOAST_ERROR_SECONDS,
  TOAST_SECONDS,
  toastError,
  toastSuccess,
} from './feedback.ts';

function recordingSink(): FeedbackSink & { shown: string[] } {
  const shown: string[] = [];
  return {
    shown,
    toast: (kind, text, seconds) => shown.push(`toast ${kind} ${text} ${seconds}`),
    notify: (kind, title, description, seconds) =>
      shown.push(`notify ${kind} ${title} ${description} ${seconds}`),
  };
}

describe('feedback', () => {
  it("shows through the sink installed last, for spec §9's durations, and falls back when it leaves", () => {
    const light = recordingSink();
    const antd = recordingSink();
    const removeLight = installFeedbackSink(light);
    toastError('E1');
    const removeAntd = installFeedbackSink(antd);
    toastSuccess('S1');
    notify('error', 'T', 'D');
    notify('info', 'T2');
    removeAntd();
    toastError('E2');
    removeLight();

    expect(light.shown).toEqual([
      `toast error E1 ${TOAST_ERROR_SECONDS}`,
      `toast error E2 ${TOAST_ERROR_SECONDS}`,
    ]);
    expect(antd.shown).toEqual([
      `toast success S1 ${TOAST_SECONDS}`,
      `notify error T D ${NOTIFICATION_ERROR_SECONDS}`,
      `notify info T2 undefined ${NOTIFICATION_SECONDS}`,
    ]);
  });

  it('keeps the newer sink when an older one is removed first', () => {
    const first = recordingSink();
    const second = recordingSink();
    const removeFirst = installFeedbackSink(first);
    const removeSecond = installFeedbackSink(second);
    removeFirst();
    toastError('still shown');
    removeSecond();
    expect(second.shown).toEqual([`toast error still shown ${TOAST_ERROR_SECONDS}`]);
    expect(first.shown).toEqual([]);
  });
});
