import type { Db } from '../../db/client.ts';
import type { EventBus } from '../../infra/events/event-bus.ts';
import type { ModuleLogger } from '../../lib/module-logger.ts';
import type { CommandService } from '../commands/index.ts';
import './events.ts';
import { DeviceHistoryService } from './device-history.service.ts';
import { type IngestOptions, IngestPipeline } from './ingest/ingest-pipeline.ts';
import { type NbCallbackSecrets, NbCallbackService } from './nbiot-callback.service.ts';
import { RuntimeService } from './runtime.service.ts';

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
  /** The command service, told of the answers ingest applied. */
  commands: Pick<CommandService, 'answered'>;
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
  const { events, commands } = options;
  // Answers that ingest applied to commands are command changes like any other.
  events.subscribe('report.stored', 'commands', (commit) => commands.answered(commit.commands));
  // A credential issued or withdrawn is looked up again.
  events.subscribe('credential.changed', 'ingest', () => ingest.directory.forget());
  return {
    ingest,
    runtime: new RuntimeService(db),
    history: new DeviceHistoryService(db, { exportMaxRows: options.exportMaxRows }),
    nbCallbacks: new NbCallbackService(ingest, options.nbCallbackSecrets ?? {}),
  };
}
