export { startDisplayChannel } from './live-channels.ts';
export {
  afterQuiet,
  atMostEvery,
  PAGE_REFRESH_MAX_WAIT_MS,
  PAGE_REFRESH_QUIET_MS,
  type Scheduled,
} from './live-schedule.ts';
export {
  useConsoleEvents,
  useLiveChannels,
  useRealtimeResubscribed,
  useRealtimeStatus,
} from './realtime-hooks.ts';
export type { RealtimeStatus } from './realtime-status.ts';
