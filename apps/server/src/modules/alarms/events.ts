import type { AlarmChange } from '@uiot/contracts';

/** Alarms as they now stand after a unit of work, with their station (the console topic they go to). */
export interface AlarmsChanged {
  alarms: { stationId: string; change: AlarmChange }[];
}

declare module '../../infra/events/event-bus.ts' {
  interface DomainEvents {
    /**
     * Warn rules of a device type were created, changed or deleted, after commit: rule caches reload the
     * type. Shared: every instance hears it.
     */
    'warnRule.changed': { deviceTypeId: string };
    /**
     * Alarms were raised, reminded, acknowledged, cleared by themselves (`Normal`) or reset by staff
     * (`Reset`), committed: each as it now stands, once per unit of work.
     */
    'alarm.changed': AlarmsChanged;
    /**
     * A display link of the control-room board was revoked (committed): its display sessions lose their live
     * connections and broker accounts. Shared: the instance holding a board's broker connection may be
     * another. (The sessions are looked up by who acts, not carried: a link can have more than a NOTIFY
     * payload holds.)
     */
    'alarmBoard.revoked': { linkId: string };
  }
}
