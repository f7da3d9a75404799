declare module '../../infra/events/event-bus.ts' {
  interface DomainEvents {
    /**
     * Warn rules of a device type were created, changed or deleted, after commit: rule caches reload the
     * type. Shared: every instance hears it.
     */
    'warnRule.changed': { deviceTypeId: string };
    /** A rule raised an alarm on a device (committed). */
    'alarm.raised': { alarmId: string; deviceId: string; ruleId: string };
    /** An open alarm's recipients are to be reminded (committed). */
    'alarm.resent': { alarmId: string };
    /** An alarm cleared by itself (`Normal`) or was reset by staff (`Reset`). */
    'alarm.closed': { alarmId: string; deviceId: string; state: 'Warn' | 'Normal' | 'Reset' };
    /** Staff acknowledged an open alarm. */
    'alarm.acknowledged': { alarmId: string };
  }
}

export {};
