/**
 * What the live channels do when other modules report something (docs/architecture.md, domain events).
 * Each returns the unsubscription.
 */
import { type EventBus, unsubscribeAll } from '../../infra/events/event-bus.ts';
import type { EmbeddedBroker } from '../../infra/mqtt/embedded-broker.ts';
import { errorMessage, type ModuleLogger } from '../../lib/module-logger.ts';
import type { ConsoleAccounts } from './console-accounts.ts';
import type { ConsoleEventFeed } from './console-events-feed.ts';
import type { NotificationHub } from './notification-hub.ts';

/**
 * Committed reports, command changes, devices gone offline, alarm changes and operation records go to the
 * console topics.
 */
export function feedConsoleEvents(events: EventBus, feed: ConsoleEventFeed): () => void {
  return unsubscribeAll([
    events.subscribe('report.stored', 'console events', (commit) => feed.ingestCommitted(commit)),
    events.subscribe('command.changed', 'console events', (updates) => feed.commandsChanged(updates)),
    events.subscribe('runtime.offline', 'console events', (devices) => feed.devicesOffline(devices)),
    events.subscribe('runtime.runState', 'console events', (changes) => feed.runStatesChanged(changes)),
    events.subscribe('alarm.changed', 'console events', (changed) => feed.alarmsChanged(changed)),
    events.subscribe('operation.recorded', 'console events', (recorded) => feed.operationsRecorded(recorded)),
  ]);
}

/** A user whose sessions ended loses its notification sockets on every instance. */
export function endNotificationsWithSessions(events: EventBus, notifications: NotificationHub): () => void {
  return events.subscribe('session.revoked', 'notifications', ({ staffId }) =>
    notifications.sessionsEnded(staffId),
  );
}

/**
 * Browsers on the embedded broker: a signed-out or disabled user loses its console connection at once, and
 * a browser whose permissions changed receives from then on only the kinds they read. A control-room board
 * whose link is revoked loses its connection at once too.
 */
export function followSessionsOnBroker(events: EventBus, broker: EmbeddedBroker): () => void {
  return unsubscribeAll([
    events.subscribe('session.revoked', 'broker', ({ staffId }) => broker.revoke(staffId)),
    // Every console is looked at again: a board of the revoked link is refused and disconnected (boards are
    // few, and a revocation rare; a staff console's answer is unchanged).
    events.subscribe('alarmBoard.revoked', 'broker', () => broker.refreshConsoles({})),
    events.subscribe('session.changed', 'broker', (change) =>
      broker.refreshConsoles(
        change.scope === 'session'
          ? { session: change.tokenHash }
          : change.scope === 'staff'
            ? { username: change.staffId }
            : {},
      ),
    ),
  ]);
}

/**
 * Browser accounts on Mosquitto's dynamic security: removed when their sessions end (a board's when its link
 * is revoked), changed when their permissions do (every instance hears a change; the accounts change once,
 * the others find them in step).
 */
export function followSessionsInAccounts(
  events: EventBus,
  accounts: ConsoleAccounts,
  logger: ModuleLogger,
): () => void {
  return unsubscribeAll([
    events.subscribe('session.revoked', 'console accounts', ({ staffId }) => {
      accounts
        .sessionsEnded(staffId)
        .catch((error: unknown) =>
          logger.error({ error: errorMessage(error) }, 'console accounts of ended sessions not removed'),
        );
    }),
    events.subscribe('session.changed', 'console accounts', (change) => accounts.sessionsChanged(change)),
    events.subscribe('alarmBoard.revoked', 'console accounts', () => {
      accounts
        .boardsRevoked()
        .catch((error: unknown) =>
          logger.error({ error: errorMessage(error) }, 'board accounts of a revoked link not removed'),
        );
    }),
  ]);
}
