import './events.ts';

export { startTcpDirect, TcpDirectStartError } from './adapters/tcp-direct.ts';
export { brokerAuthorizer, consoleRechecker } from './broker-authorizer.ts';
export { DeviceCommandSender } from './command-sender.ts';
export { dropConnectionsOnCredentialChange, keepDynsecAccounts } from './credential-events.ts';
export { DEMO_HEARTBEAT_SECONDS, prepareDemoStation } from './demo-station.ts';
export { startDeviceBus } from './device-bus.ts';
export { DeviceCredentials } from './device-credentials.ts';
export type { CommittedRuntime, IngestCommit, IngestOptions } from './ingest/ingest-pipeline.ts';
export { iotRoutes } from './iot.routes.ts';
export { createIotServices, type IotServices } from './iot.services.ts';
export { startRuntimeJobs, type WentOffline } from './runtime-jobs.ts';
