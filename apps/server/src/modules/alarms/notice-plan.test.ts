import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  afterAttempt,
  consoleTime,
  MAX_NOTICE_ATTEMPTS,
  NOTICE_RETRY_SECONDS,
  noticeTargets,
  noticeTexts,
  webhookRequest,
} from './notice-plan.ts';

describe('afterAttempt', () => {
  const at = 1_000_000;
  it('ends a notification whose attempt succeeded', () => {
    expect(afterAttempt(1, true, at)).toEqual({ state: 'sent', nextAttemptAt: null });
    expect(afterAttempt(MAX_NOTICE_ATTEMPTS, true, at)).toEqual({ state: 'sent', nextAttemptAt: null });
  });
  it('retries a failed one after a growing wait, and gives up after the last attempt', () => {
    const waits = [];
    for (let attempt = 1; attempt < MAX_NOTICE_ATTEMPTS; attempt++) {
      const next = afterAttempt(attempt, false, at);
      expect(next.state).toBe('pending');
      waits.push((next.nextAttemptAt! - at) / 1000);
    }
    expect(waits).toEqual([...NOTICE_RETRY_SECONDS]);
    expect(waits).toEqual([...waits].sort((a, b) => a - b));
    expect(afterAttempt(MAX_NOTICE_ATTEMPTS, false, at)).toEqual({ state: 'failed', nextAttemptAt: null });
  });
});

describe('noticeTargets', () => {
  const contacts = [
    { id: 's1', name: 'Ann', email: 'ann@example.com', telNo: '13800000001' },
    { id: 's2', name: 'Bo', email: null, telNo: ' ' },
  ];
  const all = { email: true, sms: true, push: true };
  it('writes one notification per wanted, configured channel and contact with an address there', () => {
    expect(noticeTargets(all, all, contacts)).toEqual([
      { channel: 'email', staffId: 's1', staffName: 'Ann', address: 'ann@example.com' },
      { channel: 'sms', staffId: 's1', staffName: 'Ann', address: '13800000001' },
      { channel: 'push', staffId: 's1', staffName: 'Ann', address: 's1' },
      { channel: 'push', staffId: 's2', staffName: 'Bo', address: 's2' },
    ]);
  });
  it('sends nothing on a channel the rule does not ask for, or the server cannot deliver on', () => {
    expect(
      noticeTargets({ email: false, sms: true, push: false }, all, contacts).map((t) => t.channel),
    ).toEqual(['sms']);
    expect(
      noticeTargets(all, { email: true, sms: false, push: false }, contacts).map((t) => t.channel),
    ).toEqual(['email']);
    expect(noticeTargets(all, all, [])).toEqual([]);
  });
});

describe('noticeTexts', () => {
  const alarm = {
    content: 'Door of L1 open',
    severity: 'critical' as const,
    ruleName: 'Door left open',
    deviceName: 'L1',
    warnTime: new Date('2026-11-27T02:00:00Z'),
    // Told twice before: the reminder is the third notice.
    sendCount: 2,
  };
  it('says what, where and when, in console time, in the language asked', () => {
    const en = noticeTexts(alarm, 'raised', 'en');
    expect(en.subject).toBe('[Critical alarm] Door left open · L1');
    expect(en.message).toBe('Door of L1 open');
    expect(en.mailText).toContain('Raised at: 2026-11-27 10:00:00');
    expect(noticeTexts(alarm, 'raised', 'zh-CN').subject).toBe('【紧急告警】Door left open · L1');
  });
  it('counts a reminder', () => {
    expect(noticeTexts(alarm, 'reminder', 'en').subject).toBe(
      '[Critical alarm reminder] Door left open · L1 (notice 3)',
    );
    expect(noticeTexts(alarm, 'reminder', 'zh-TW').subject).toContain('第 3 次');
  });
  it('shows console time as UTC+8', () => {
    expect(consoleTime(new Date('2026-12-31T16:30:05Z'))).toBe('2027-01-01 00:30:05');
  });
});

describe('webhookRequest', () => {
  const values = {
    message: 'Door "A" open',
    subject: 's',
    phone: '138',
    email: '',
    staffId: 'u1',
    staffName: 'Ann',
    alarmId: 'a1',
    severity: 'major' as const,
    occasion: 'raised' as const,
    device: 'L1',
    time: 't',
  };
  const at = 1_764_000_000_123;
  it('fills the template and signs timestamp and body with the secret', () => {
    const request = webhookRequest(
      { bodyTemplate: '{"to":"{phone}","text":"{message}"}', secret: 'hook-secret-0123456789' },
      values,
      at,
    );
    expect(JSON.parse(request.body)).toEqual({ to: '138', text: 'Door "A" open' });
    expect(request.headers['x-uiot-timestamp']).toBe('1764000000');
    const expected = createHmac('sha256', 'hook-secret-0123456789')
      .update(`1764000000.${request.body}`)
      .digest('hex');
    expect(request.headers['x-uiot-signature']).toBe(`sha256=${expected}`);
  });
  it('sends no signature without a secret', () => {
    const request = webhookRequest({ bodyTemplate: '{"to":"{staffId}"}', secret: undefined }, values, at);
    expect(request.headers['x-uiot-signature']).toBeUndefined();
    expect(request.body).toBe('{"to":"u1"}');
  });
});
