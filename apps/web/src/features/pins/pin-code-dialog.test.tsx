import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatDateTime } from '../../lib/i18n/date-format.ts';
import { i18n } from '../../lib/i18n/i18n.ts';
import { EraseCodeView, IssuedPinView } from './pin-code-dialog.tsx';
import { pinRow } from './test-rows.ts';

const CODE = '312512106';

/** The text of a test id's element (its first text run). */
function textOf(html: string, testId: string): string | undefined {
  return new RegExp(`data-testid="${testId}"[^>]*>(?:<[^>]+>)*([^<]+)`).exec(html)?.[1];
}

describe('IssuedPinView', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('shows the code, the lock, the user, the type and the window, and warns it is shown only now', () => {
    const html = renderToStaticMarkup(<IssuedPinView code={CODE} pin={pinRow('p1')} />);
    expect(textOf(html, 'pinCode-password')).toBe(CODE);
    expect(html).toContain('data-testid="pinCode-copy"');
    expect(html).toContain('Tsuen Wan tunnel door');
    expect(html).toContain('Chan Tai Man');
    expect(html).toContain('Once');
    expect(textOf(html, 'pinCode-window')).toBe(
      `${formatDateTime('2030-01-01T08:00:00.000Z')} – ${formatDateTime('2030-01-01T10:00:00.000Z')}`,
    );
    expect(html).toContain('The PIN is shown only now');
  });

  it("names a weekly PIN's weekdays, Monday first", () => {
    const html = renderToStaticMarkup(
      <IssuedPinView code={CODE} pin={pinRow('p1', { type: 'weekly', weekdays: [4, 0] })} />,
    );
    expect(textOf(html, 'pinCode-window')).toMatch(/^00:00–06:00 on Monday, Friday, from /);
  });

  it('reads in the console language', async () => {
    await i18n.changeLanguage('zh-CN');
    expect(renderToStaticMarkup(<IssuedPinView code={CODE} pin={pinRow('p1')} />)).toContain(
      '动态密码只显示这一次',
    );
    await i18n.changeLanguage('zh-TW');
    const html = renderToStaticMarkup(
      <IssuedPinView code={CODE} pin={pinRow('p1', { type: 'weekly', weekdays: [6] })} />,
    );
    expect(html).toContain('每週');
    expect(textOf(html, 'pinCode-window')).toMatch(/^星期日 的 00:00–06:00/);
  });
});

describe('EraseCodeView', () => {
  it('shows the code, the lock, until when the lock takes it and how many PINs it disabled', async () => {
    await i18n.changeLanguage('en');
    const html = renderToStaticMarkup(
      <EraseCodeView
        code="157082474"
        validUntil="2030-01-02T08:00:00.000Z"
        disabled={4}
        deviceName="Gate 9"
      />,
    );
    expect(textOf(html, 'eraseCode-password')).toBe('157082474');
    expect(html).toContain('Gate 9');
    expect(textOf(html, 'eraseCode-validUntil')).toBe(formatDateTime('2030-01-02T08:00:00.000Z'));
    expect(textOf(html, 'eraseCode-disabled')).toBe('4');
    expect(html).toContain('The erase code is shown only now');
  });
});
