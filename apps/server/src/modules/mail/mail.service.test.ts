import { describe, expect, it } from 'vitest';
import { MailService } from './mail.service.ts';

describe('mail service', () => {
  it('says where mail goes without credentials', () => {
    const kept = new MailService(null as never, null);
    expect(kept.deliveryDescription).toBe(
      'mail is kept in the outbox for the administrator (SMTP_URL is not set)',
    );
    const smtp = new MailService(null as never, {
      description: 'SMTP at smtp.example.com:587',
      deliver: async () => undefined,
      close: () => undefined,
    });
    expect(smtp.deliveryDescription).toBe('mail is delivered through SMTP at smtp.example.com:587');
  });
});
