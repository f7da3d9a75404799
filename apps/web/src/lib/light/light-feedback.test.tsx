import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/i18n.ts';
import { LightFeedback, lightFeedback } from './light-feedback.tsx';

const texts = (html: string, className: string) =>
  [...html.matchAll(new RegExp(`class="${className}"[^>]*>([^<]*)<`, 'g'))].map((match) => match[1]);

describe('light feedback', () => {
  beforeEach(async () => {
    vi.useFakeTimers();
    await i18n.changeLanguage('en');
  });
  afterEach(() => {
    vi.runAllTimers();
    vi.useRealTimers();
  });

  it('shows at most 3 toasts, the newest, each until its time is up; errors are announced at once', () => {
    for (const text of ['one', 'two', 'three', 'four']) lightFeedback.toast('error', text, 5);
    lightFeedback.toast('success', 'five', 3);
    let html = renderToStaticMarkup(<LightFeedback />);
    expect(
      [...html.matchAll(/class="uiot-toast uiot-toast--(\w+)" role="(\w+)"/g)].map((m) => m.slice(1)),
    ).toEqual([
      ['error', 'alert'],
      ['error', 'alert'],
      ['success', 'status'],
    ]);
    expect(html).toContain('>three<');
    expect(html).toContain('>four<');
    expect(html).toContain('>five<');
    expect(html).not.toContain('>two<');

    vi.advanceTimersByTime(3000);
    html = renderToStaticMarkup(<LightFeedback />);
    expect(html).not.toContain('>five<');
    expect(html).toContain('>four<');
    vi.advanceTimersByTime(2000);
    expect(renderToStaticMarkup(<LightFeedback />)).not.toContain('uiot-toast uiot-toast--');
  });

  it('shows a notification with its title, its lines and a translated close button', () => {
    lightFeedback.notify('error', 'Network error', 'Check the network\nGET /api/x', 6);
    const html = renderToStaticMarkup(<LightFeedback />);
    expect(texts(html, 'uiot-notification__title')).toEqual(['Network error']);
    expect(texts(html, 'uiot-notification__text')).toEqual(['Check the network\nGET /api/x']);
    expect(html).toContain('aria-label="Close"');
  });
});
