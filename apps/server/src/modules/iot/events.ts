import type { IngestCommit } from './ingest/ingest-pipeline.ts';
import type { RunStateChange } from './run-states.ts';
import type { WentOffline } from './runtime-jobs.ts';

declare module '../../infra/events/event-bus.ts' {
  interface DomainEvents {
    /** A batch of device reports was committed and changed runtime data or answered commands. */
    'report.stored': IngestCommit;
    /**
     * A device's broker / TcpDirect credential was issued (`secret`) or withdrawn (`secret: null`), after
     * commit. Local only: it carries the secret, which never leaves the process.
     */
    'credential.changed': { code: string; stationId: string; secret: string | null };
    /**
     * A device's offline-PIN secret was replaced (a reset) or withdrawn (unregistration), after commit: the
     * PINs derived from it stop opening the lock once it holds its new one.
     */
    'pinSecret.replaced': { deviceId: string; at: number };
    /** Devices whose heartbeat stopped were marked offline. */
    'runtime.offline': WentOffline[];
    /**
     * Devices whose shown run state the periodic pass changed (a door open past its limit, damage reports
     * leaving the 30 days, levels changed), once committed. Changes made with a report travel in
     * `report.stored`.
     */
    'runtime.runState': RunStateChange[];
  }
}
