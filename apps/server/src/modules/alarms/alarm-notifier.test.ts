import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { SILENT_LOGGER } from '../../lib/module-logger.ts';
import type { MailService } from '../mail/index.ts';
import { AlarmNotifier } from './alarm-notifier.ts';

const notifier = (delivers: boolean, webhooks: ConstructorParameters<typeof AlarmNotifier>[2]['webhooks']) =>
  new AlarmNotifier({} as Db, { delivers } as MailService, { webhooks, logger: SILENT_LOGGER });

describe('AlarmNotifier channels', () => {
  it('says which channels deliver, naming hosts and never a secret or a query', () => {
    const configured = notifier(true, {
      sms: {
        url: 'https://gw.example.com/send?key=Gateway-Key-123',
        secret: 'hook-secret-0123456789',
        bodyTemplate: '{}',
      },
      push: { url: 'http://push.example.com:8080/', secret: undefined, bodyTemplate: '{}' },
    });
    expect(configured.channels).toEqual({ email: true, sms: true, push: true });
    expect(configured.channelsDescription).toBe(
      'alarm notifications: e-mail through the mail server, SMS through gw.example.com (signed), app push through push.example.com:8080',
    );
    expect(configured.channelsDescription).not.toContain('Gateway-Key');
    expect(configured.channelsDescription).not.toContain('hook-secret');
  });

  it('says which variable to set for a channel that sends nothing', () => {
    const bare = notifier(false, {});
    expect(bare.channels).toEqual({ email: false, sms: false, push: false });
    expect(bare.channelsDescription).toBe(
      'alarm notifications: no e-mail (SMTP_URL is not set), no SMS (SMS_WEBHOOK_URL is not set), no app push (PUSH_WEBHOOK_URL is not set)',
    );
  });

  it('notifies only where a channel the rule asks for is configured', () => {
    const smsOnly = notifier(false, {
      sms: { url: 'https://gw.example.com', secret: undefined, bodyTemplate: '{}' },
    });
    expect(smsOnly.notifies({ id: 'r', notices: { email: true, sms: false, push: true } })).toBe(false);
    expect(smsOnly.notifies({ id: 'r', notices: { email: false, sms: true, push: false } })).toBe(true);
  });
});
