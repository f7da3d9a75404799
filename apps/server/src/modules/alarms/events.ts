declare module '../../infra/events/event-bus.ts' {
  interface DomainEvents {
    /**
     * Warn rules of a device type were created, changed or deleted, after commit: rule caches reload the
     * type. Shared: every instance hears it.
     */
    'warnRule.changed': { deviceTypeId: string };
  }
}

export {};
