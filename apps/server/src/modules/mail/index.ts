export { type MailLog, MailService } from './mail.service.ts';
export { mailTemplates } from './mail-templates.ts';
export { smtpTransport } from './smtp-transport.ts';
