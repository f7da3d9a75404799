/** A lock reported that wrong PINs locked its keypad out. */
export interface PinLockout {
  deviceId: string;
  stationId: string;
  /** ms epoch: when the server received the report */
  at: number;
}

declare module '../../infra/events/event-bus.ts' {
  interface DomainEvents {
    /** Wrong PINs locked a lock's keypad (committed report): an alarm is raised. */
    'pin.lockout': PinLockout;
  }
}
