/**
 * The simulator's API: the server's DEMO mode and the ingest benchmark start fleets of simulated locks
 * with `startFleet`; broker tests write raw MQTT packets with its encoders.
 */
export { LOCK_ERROR_CODES } from './chirpstack-link.ts';
export { startFleet } from './fleet.ts';
export { deviceProblem, fleetOptionsProblem } from './fleet-check.ts';
export { type FleetProtocolChoice, generateDevices, parseFleetFile, readFleetFile } from './fleet-file.ts';
export {
  type Fleet,
  type FleetLogger,
  type FleetMode,
  type FleetOptions,
  type FleetStats,
  LOAD_FAULT_BATTERY,
  SIM_PROTOCOLS,
  type SimProtocol,
  type SimulatedDevice,
} from './fleet-options.ts';
export {
  type ExpectedIds,
  expectedIdList,
  LOAD_TICK_MS,
  LoadScheduler,
  loadReportId,
  offeredBy,
} from './load-scheduler.ts';
export {
  DEFAULT_BEHAVIOUR,
  type LockBehaviour,
  LockModel,
  type LockModelOptions,
  type LockSnapshot,
  type PinEntryOutcome,
  type ReportToSend,
  type ResultToSend,
} from './lock-model.ts';
export { encodeConnect, encodePublish, encodeSubscribe, encodeTopicName } from './mqtt-wire.ts';
export { createRandom, deriveSeed, type Random } from './random.ts';
