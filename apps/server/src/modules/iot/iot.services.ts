import type { Db } from '../../db/client.ts';
import type { EventBus } from '../../infra/events/event-bus.ts';
import type { ModuleLogger } from '../../lib/module-logger.ts';
import './events.ts';
import { DeviceHistoryService } from './device-history.service.ts';
import { type IngestOptions, IngestPipeline } from './ingest/ingest-pipeline.ts';
import { type NbCallbackSecrets, NbCallbackService } from './nbiot-callback.service.ts';
import { type BatteryBands, RuntimeService } from './runtime.service.ts';

/** The IoT pipeline's services: ingest, runtime data, telemetry records, NB-IoT callbacks. */
export interface IotServices {
  ingest: IngestPipeline;
  runtime: RuntimeService;
  history: DeviceHistoryService;
  nbCallbacks: NbCallbackService;
}

export interface IotOptions {
  logger: ModuleLogger;
  events: EventBus;
  /** The battery bands of the monitor (the power levels'). */
  batteryBands: BatteryBands;
  nbCallbackSecrets?: NbCallbackSecrets;
  ingest?: Omit<IngestOptions, 'logger'>;
  exportMaxRows?: number;
}

export function createIotServices(db: Db, options: IotOptions): IotServices {
  const ingest = new IngestPipeline(db, {
    logger: options.logger,
    events: options.events,
    ...options.ingest,
  });
  return {
    ingest,
    runtime: new RuntimeService(db, options.batteryBands),
    history: new DeviceHistoryService(db, { exportMaxRows: options.exportMaxRows }),
    nbCallbacks: new NbCallbackService(ingest, options.nbCallbackSecrets ?? {}),
  };
}
