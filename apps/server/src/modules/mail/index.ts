import { defineModule } from '../../module.ts';
import { MailService } from './mail.service.ts';
import { smtpTransport } from './smtp-transport.ts';

export { type MailLog, MailService } from './mail.service.ts';
export { mailTemplates } from './mail-templates.ts';
export { smtpTransport } from './smtp-transport.ts';

/** Outgoing mail. */
export const mailModule = defineModule({
  name: 'mail',
  build: ({ db, config, options }) => ({
    mail: new MailService(db, config.smtpUrl ? smtpTransport(config.smtpUrl) : null, options.mailLog),
  }),
});
