import type { OperationRecordRow } from '@uiot/contracts';

/** Operation records made or moved on in a unit of work, as they now stand (each names its station). */
export interface OperationsRecorded {
  records: OperationRecordRow[];
}

/** An opening a lock reported that no task or fixed authorisation in force covered. */
export interface UncoveredOpening {
  recordId: string;
  deviceId: string;
  stationId: string;
  /** ms epoch: when the lock says it opened */
  at: number;
}

declare module '../../infra/events/event-bus.ts' {
  interface DomainEvents {
    /**
     * Operation records were made (a remote operation asked, refused or not; an opening a lock reported; a
     * client's upload) or moved on (a remote operation's command answered), committed.
     */
    'operation.recorded': OperationsRecorded;
    /** A lock reported an opening no task or fixed authorisation covered (committed): an alarm is raised. */
    'opening.uncovered': UncoveredOpening;
  }
}
