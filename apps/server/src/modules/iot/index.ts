import { unsubscribeAll } from '../../infra/events/event-bus.ts';
import { SILENT_LOGGER } from '../../lib/module-logger.ts';
import { defineModule } from '../../module.ts';
import { dropConnectionsOnCredentialChange, keepDynsecAccounts } from './credential-events.ts';
import { DeviceCredentials } from './device-credentials.ts';
import { iotRoutes } from './iot.routes.ts';
import { createIotServices } from './iot.services.ts';
import { startRuntimeJobs } from './runtime-jobs.ts';
import './events.ts';

export { createTcpDirect, type TcpDirectListener, TcpDirectStartError } from './adapters/tcp-direct.ts';
export { brokerAuthorizer, consoleRechecker } from './broker-authorizer.ts';
export { DeviceCommandSender } from './command-sender.ts';
export { DEMO_HEARTBEAT_SECONDS, prepareDemoStation } from './demo-station.ts';
export { startDeviceBus } from './device-bus.ts';
export { DeviceCredentials } from './device-credentials.ts';
export type { CommittedRuntime, IngestCommit, IngestOptions } from './ingest/ingest-pipeline.ts';
export { SoleWriterLease } from './ingest/sole-writer.ts';
export { iotRoutes } from './iot.routes.ts';
export { createIotServices, type IotServices } from './iot.services.ts';
export { DOOR_OPEN_TIMEOUT_PARAM, type RunStateChange } from './run-states.ts';
export { startRuntimeJobs, type WentOffline } from './runtime-jobs.ts';

/** Device credentials, ingest, runtime data, telemetry records and NB-IoT callbacks. */
export const iotModule = defineModule({
  name: 'iot',
  needs: ['levels', 'params'],
  build: ({ db, config, options, events }, { levels, params }) => ({
    deviceCredentials: new DeviceCredentials(db, events),
    iot: createIotServices(db, {
      logger: options.iotLog ?? SILENT_LOGGER,
      events,
      batteryBands: levels,
      runStateSources: {
        powerLevels: () => levels.powerLevels(),
        damageLevels: () => levels.damageLevels(),
        getValues: (names) => params.getValues(names),
      },
      nbCallbackSecrets: config.nbCallbackSecrets ?? {},
      ...(options.ingest ? { ingest: options.ingest } : {}),
      ...(options.exportMaxRows ? { exportMaxRows: options.exportMaxRows } : {}),
    }),
  }),
  subscribe: (events, { iot, commands }) => {
    // Answers that ingest applied to commands are command changes like any other.
    events.subscribe('report.stored', 'commands', (commit) => commands.answered(commit.commands));
    // A credential issued or withdrawn is looked up again.
    events.subscribe('credential.changed', 'ingest', () => iot.ingest.directory.forget());
    // Levels decide computed run states: the next batch or pass reads them again (the pass then works out
    // every device).
    events.subscribe('powerLevel.changed', 'run states', () => iot.runStates.forget());
    events.subscribe('damageLevel.changed', 'run states', () => iot.runStates.forget());
  },
  follow: (events, { broker, tcpDirect, brokerAccounts, logger }) =>
    unsubscribeAll([
      dropConnectionsOnCredentialChange(events, { broker, tcpDirect }),
      ...(brokerAccounts ? [keepDynsecAccounts(events, brokerAccounts.devices, logger('dynsec'))] : []),
    ]),
  routes: (services) => iotRoutes(services),
  jobs: ({ services, db, config, logger }) =>
    startRuntimeJobs({
      db,
      history: services.iot.history,
      retentionDays: config.historyRetentionDays,
      logger: logger('runtime'),
      events: services.events,
      runStates: services.iot.runStates,
    }),
});
