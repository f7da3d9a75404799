import { SILENT_LOGGER } from '../../lib/module-logger.ts';
import { defineModule } from '../../module.ts';
import { CommandService, startCommandScheduler } from './command.service.ts';
import { CommandRecordService } from './command-record.service.ts';
import { commandRoutes } from './commands.routes.ts';
import './events.ts';

export { applyCommandAnswers, type CommandAnswer } from './command.repository.ts';
export { CommandService, type CommandUpdate, startCommandScheduler } from './command.service.ts';
export { CommandRecordService } from './command-record.service.ts';
export { type CommandSend, type CommandTransport, lockSequenceOf, type SentCommand } from './command-send.ts';
export { commandRoutes } from './commands.routes.ts';

/**
 * Device commands and their records. The command service is built without its sender: commands leave
 * through the device bus and TcpDirect, which start after the services (system.ts attaches it).
 */
export const commandsModule = defineModule({
  name: 'commands',
  build: ({ db, config, options, events }) => ({
    commands: new CommandService({
      db,
      logger: options.commandLog ?? SILENT_LOGGER,
      events,
      ...(config.commandRetransmitSeconds ? { retransmitSeconds: config.commandRetransmitSeconds } : {}),
    }),
    commandRecords: new CommandRecordService(db),
  }),
  routes: (services) => commandRoutes(services),
  jobs: ({ services, logger }) => startCommandScheduler(services.commands, logger('commands')),
});
