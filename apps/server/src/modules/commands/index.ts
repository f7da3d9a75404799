import './events.ts';

export { applyCommandAnswers, type CommandAnswer } from './command.repository.ts';
export { CommandService, type CommandUpdate, startCommandScheduler } from './command.service.ts';
export { CommandRecordService } from './command-record.service.ts';
export { type CommandSend, type CommandTransport, lockSequenceOf, type SentCommand } from './command-send.ts';
export { commandRoutes } from './commands.routes.ts';
