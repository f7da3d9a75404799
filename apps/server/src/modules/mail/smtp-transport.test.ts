import { describe, expect, it } from 'vitest';
import { smtpHostOf, splitSender } from './smtp-transport.ts';

describe('SMTP_URL', () => {
  it('is shown by host and port only, never with its credentials', () => {
    const url = 'smtp://mailer%40example.com:S3cret-Pass@smtp.example.com:587';
    expect(smtpHostOf(url)).toBe('smtp.example.com:587');
    expect(smtpHostOf('smtps://u:p@mail.example.org')).toBe('mail.example.org');
    expect(smtpHostOf('not a url')).not.toContain('not a url');
  });

  it('gives the sender from ?from=, else the user when it is an address, else no-reply at the host', () => {
    expect(splitSender('smtp://u:p@smtp.example.com:587/?from=console%40example.com')).toEqual({
      url: 'smtp://u:p@smtp.example.com:587/',
      from: 'console@example.com',
    });
    expect(splitSender('smtp://mailer%40example.com:p@smtp.example.com').from).toBe('mailer@example.com');
    expect(splitSender('smtp://relay.example.com:25').from).toBe('no-reply@relay.example.com');
  });
});
