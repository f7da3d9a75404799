import type { CommandUpdate } from './command.service.ts';

declare module '../../infra/events/event-bus.ts' {
  interface DomainEvents {
    /** Device commands changed delivery state (issued, sent, answered, expired, timed out), after commit. */
    'command.changed': CommandUpdate[];
  }
}
