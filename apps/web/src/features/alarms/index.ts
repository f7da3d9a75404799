/**
 * What the console shows of alarms outside their records page: the navbar's bell, Home's today's alarms
 * and the records of one device (the monitor's historical-alarm tab).
 */
export { AlarmBell } from './alarm-bell.tsx';
export { AlarmRecords } from './alarm-records.tsx';
export { TodayAlarmsCard } from './today-alarms-card.tsx';
