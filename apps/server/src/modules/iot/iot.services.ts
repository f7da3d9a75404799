import type { Db } from '../../db/client.ts';
import type { EventBus } from '../../infra/events/event-bus.ts';
import type { ModuleLogger } from '../../lib/module-logger.ts';
import './events.ts';
import { DeviceHistoryService } from './device-history.service.ts';
import { type IngestOptions, IngestPipeline } from './ingest/ingest-pipeline.ts';
import { type NbCallbackSecrets, NbCallbackService } from './nbiot-callback.service.ts';
import { RunStateKeeper, type RunStateSources } from './run-states.ts';
import { type BatteryBands, RuntimeService } from './runtime.service.ts';

/** The IoT pipeline's services: ingest, runtime data, telemetry records, NB-IoT callbacks. */
export interface IotServices {
  ingest: IngestPipeline;
  runtime: RuntimeService;
  history: DeviceHistoryService;
  nbCallbacks: NbCallbackService;
  /** The run states devices show: worked out after each batch and by a periodic pass. */
  runStates: RunStateKeeper;
}

export interface IotOptions {
  logger: ModuleLogger;
  events: EventBus;
  /** The battery bands of the monitor (the power levels'). */
  batteryBands: BatteryBands;
  /** The levels and parameters the computed run states come from. */
  runStateSources: RunStateSources;
  nbCallbackSecrets?: NbCallbackSecrets;
  ingest?: Omit<IngestOptions, 'logger'>;
  exportMaxRows?: number;
}

export function createIotServices(db: Db, options: IotOptions): IotServices {
  const runStates = new RunStateKeeper(
    db,
    options.runStateSources,
    options.events,
    options.ingest?.now,
    options.logger,
  );
  const ingest = new IngestPipeline(db, {
    logger: options.logger,
    events: options.events,
    runStates,
    ...options.ingest,
  });
  return {
    ingest,
    runtime: new RuntimeService(db, options.batteryBands),
    history: new DeviceHistoryService(db, { exportMaxRows: options.exportMaxRows }),
    nbCallbacks: new NbCallbackService(ingest, options.nbCallbackSecrets ?? {}),
    runStates,
  };
}
