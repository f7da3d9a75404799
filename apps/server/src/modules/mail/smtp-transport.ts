import nodemailer from 'nodemailer';

/** One mail to deliver: plain text to one recipient. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** What delivers mail; the outbox does not know it is SMTP (tests may hand in their own). */
export interface MailTransport {
  /** Where mail goes, for the start-up line: never credentials. */
  readonly description: string;
  deliver(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * Host and port of an SMTP URL, for logs. The URL may carry a user name and password: they are left out.
 */
export function smtpHostOf(smtpUrl: string): string {
  try {
    return new URL(smtpUrl).host;
  } catch {
    return 'an invalid SMTP_URL';
  }
}

/**
 * The sender address: `?from=` of SMTP_URL when given (taken off before the URL reaches nodemailer),
 * else the SMTP user when it is an address, else no-reply at the SMTP host.
 */
export function splitSender(smtpUrl: string): { url: string; from: string } {
  const url = new URL(smtpUrl);
  const from = url.searchParams.get('from');
  url.searchParams.delete('from');
  const user = decodeURIComponent(url.username);
  return {
    url: url.toString(),
    from: from?.trim() || (user.includes('@') ? user : `no-reply@${url.hostname}`),
  };
}

/** Delivers through the SMTP server of SMTP_URL (`smtp://user:pass@host:587`, `smtps://...`). */
export function smtpTransport(smtpUrl: string): MailTransport {
  const { url, from } = splitSender(smtpUrl);
  const transporter = nodemailer.createTransport(url, { from });
  return {
    description: `SMTP at ${smtpHostOf(smtpUrl)}`,
    deliver: async (message) => {
      await transporter.sendMail({ to: message.to, subject: message.subject, text: message.text });
    },
    close: () => transporter.close(),
  };
}
