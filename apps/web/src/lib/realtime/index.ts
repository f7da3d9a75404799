export { startDisplayChannel } from './live-channels.ts';
export {
  useConsoleEvents,
  useLiveChannels,
  useRealtimeResubscribed,
  useRealtimeStatus,
} from './realtime-hooks.ts';
export type { RealtimeStatus } from './realtime-status.ts';
