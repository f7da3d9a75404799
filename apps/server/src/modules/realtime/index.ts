import { defineModule } from '../../module.ts';
import { realtimeRoutes } from './realtime.routes.ts';

export { endedSessionsOf, openSessionsOf } from './console-accounts.repository.ts';
export { ConsoleAccounts, type ConsoleBrokerLogins } from './console-accounts.ts';
export { ConsoleEventPublisher } from './console-events.ts';
export { DevicePlaces } from './console-events-devices.ts';
export { ConsoleEventFeed } from './console-events-feed.ts';
export { openNotificationChannel } from './notification-channel.ts';
export { NotificationHub } from './notification-hub.ts';
export { attachNotificationSocket } from './notification-socket.ts';
export { realtimeRoutes } from './realtime.routes.ts';
export {
  endNotificationsWithSessions,
  feedConsoleEvents,
  followSessionsInAccounts,
  followSessionsOnBroker,
} from './realtime-events.ts';

/** The console's live channels; started by start-up once the device bus runs (system.ts). */
export const realtimeModule = defineModule({
  name: 'realtime',
  routes: (_services, { brokerLogins }) => realtimeRoutes(brokerLogins),
});
