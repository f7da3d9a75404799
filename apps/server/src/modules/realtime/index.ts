import { unsubscribeAll } from '../../infra/events/event-bus.ts';
import { defineModule } from '../../module.ts';
import { realtimeRoutes } from './realtime.routes.ts';
import {
  endNotificationsWithSessions,
  feedConsoleEvents,
  followSessionsInAccounts,
  followSessionsOnBroker,
} from './realtime-events.ts';

export { endedSessionsOf, openSessionsOf } from './console-accounts.repository.ts';
export { ConsoleAccounts, type ConsoleBrokerLogins, staffBrokerLogins } from './console-accounts.ts';
export { ConsoleEventPublisher } from './console-events.ts';
export { DevicePlaces } from './console-events-devices.ts';
export { ConsoleEventFeed } from './console-events-feed.ts';
export { openNotificationChannel } from './notification-channel.ts';
export { NotificationHub } from './notification-hub.ts';
export { attachNotificationSocket } from './notification-socket.ts';
export { realtimeRoutes } from './realtime.routes.ts';

/**
 * The console's live channels: started by start-up with the device bus (system.ts); what modules report
 * reaches the console topics, notification sockets and browsers' broker connections.
 */
export const realtimeModule = defineModule({
  name: 'realtime',
  follow: (events, { consoleEvents, notifications, broker, brokerAccounts, logger }) =>
    unsubscribeAll([
      feedConsoleEvents(events, consoleEvents),
      endNotificationsWithSessions(events, notifications),
      ...(broker ? [followSessionsOnBroker(events, broker)] : []),
      ...(brokerAccounts
        ? [followSessionsInAccounts(events, brokerAccounts.consoles, logger('console-accounts'))]
        : []),
    ]),
  routes: (_services, { brokerLogins }) => realtimeRoutes(brokerLogins),
});
