declare module '../../infra/events/event-bus.ts' {
  interface DomainEvents {
    /**
     * A power level was created, changed or deleted (committed): what is kept of the battery bands is read
     * again. Shared: every instance hears it.
     */
    'powerLevel.changed': Record<string, never>;
    /**
     * A damage level was created, changed or deleted (committed): run states computed from damage are
     * worked out again. Shared: every instance hears it.
     */
    'damageLevel.changed': Record<string, never>;
  }
}

export {};
