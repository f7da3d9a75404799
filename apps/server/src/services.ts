import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import { EventBus } from './infra/events/event-bus.ts';
import type { FileService, FileServiceOptions } from './infra/files/file.service.ts';
import type { FileStore } from './infra/files/file-store.ts';
import { filesModule } from './infra/files/files.module.ts';
import { type ModuleLogger, SILENT_LOGGER } from './lib/module-logger.ts';
import { type Built, buildModules, type ServerModule } from './module.ts';
import { adminModule, type LogQueryService, type OpLogService } from './modules/admin/index.ts';
import { type AlarmsServices, alarmsModule } from './modules/alarms/index.ts';
import { type AuthService, authModule, type SessionService } from './modules/auth/index.ts';
import { type CommandRecordService, type CommandService, commandsModule } from './modules/commands/index.ts';
import { type DevicesServices, devicesModule } from './modules/devices/index.ts';
import { homeModule } from './modules/home/index.ts';
import type { IngestOptions } from './modules/iot/index.ts';
import { type DeviceCredentials, type IotServices, iotModule } from './modules/iot/index.ts';
import { type LevelService, levelsModule } from './modules/levels/index.ts';
import { type MailLog, type MailService, mailModule } from './modules/mail/index.ts';
import { type OrgServices, orgModule } from './modules/org/index.ts';
import { type ParamService, paramsModule } from './modules/params/index.ts';
import { type PinService, pinsModule } from './modules/pins/index.ts';
import { realtimeModule } from './modules/realtime/index.ts';
import { type RegistrationService, registrationModule } from './modules/registration/index.ts';
import { systemModule } from './modules/system/index.ts';
import { type TasksServices, tasksModule } from './modules/tasks/index.ts';

/** The services of the business modules, built once per process around one database. */
export interface Services {
  /** The domain events the modules publish and subscribe to. */
  events: EventBus;
  sessions: SessionService;
  auth: AuthService;
  params: ParamService;
  opLog: OpLogService;
  org: OrgServices;
  devices: DevicesServices;
  deviceCredentials: DeviceCredentials;
  iot: IotServices;
  /** Power and damage levels. */
  levels: LevelService;
  /** Device commands; their sender is attached when the device bus starts (system.ts). */
  commands: CommandService;
  /** Remote control records. */
  commandRecords: CommandRecordService;
  mail: MailService;
  registration: RegistrationService;
  logs: LogQueryService;
  /** The file store: uploads, what refers to them, the orphan sweep. */
  files: FileService;
  /** Warn rules, device property catalogues, the alarm runner and alarm records. */
  alarms: AlarmsServices;
  /** Lock tasks and fixed authorisations. */
  tasks: TasksServices;
  /** Offline PINs. */
  pins: PinService;
}

/** What tests (and start-up) may hand in besides the configuration. */
export interface ServiceOptions {
  mailLog?: MailLog;
  /** Clock of registration codes and of the throttling of password guesses. */
  now?: () => Date;
  exportMaxRows?: number;
  /** Where ingest logs refused messages and failed batches (silent when not given). */
  iotLog?: ModuleLogger;
  /** Where the command service logs (silent when not given). */
  commandLog?: ModuleLogger;
  ingest?: Omit<IngestOptions, 'logger'>;
  /** Where files are kept (default: FILE_STORE_URL, else DATA_DIR/files, else a temporary folder). */
  fileStore?: FileStore;
  files?: FileServiceOptions;
  /** Where failing event handlers are logged (silent when not given). */
  eventLog?: ModuleLogger;
  /** Where the alarms module logs rules it could not evaluate and timers it could not fire. */
  alarmLog?: ModuleLogger;
  /** Clock of the alarm timers and of staff acting on alarms (ms; Date.now when not given). */
  alarmClock?: () => number;
}

/** The part of the configuration the services are built with. */
export type ServiceConfig = Pick<Config, 'sessionIdleSeconds' | 'sessionMaxSeconds'> &
  Partial<
    Pick<
      Config,
      | 'smtpUrl'
      | 'noticeWebhooks'
      | 'nbCallbackSecrets'
      | 'commandRetransmitSeconds'
      | 'dataDir'
      | 'fileStore'
    >
  >;

/**
 * The server's modules (docs/architecture.md). They are built in the order their needs give; their routes
 * are registered, their subscriptions made and their jobs started in this order.
 */
const modules = [
  systemModule,
  authModule,
  homeModule,
  orgModule,
  devicesModule,
  levelsModule,
  iotModule,
  commandsModule,
  paramsModule,
  mailModule,
  registrationModule,
  realtimeModule,
  adminModule,
  filesModule,
  alarmsModule,
  tasksModule,
  pinsModule,
] as const;
export const serverModules: readonly ServerModule[] = modules;

/** Fails to compile, naming it, when no module's `build` gives one of the services or ports. */
type Given = (typeof modules)[number] extends infer M
  ? M extends { build?(...args: never): infer G }
    ? keyof G
    : never
  : never;
type NotBuilt = Exclude<keyof Built, Given | 'events'>;
const everyServiceBuilt: [NotBuilt] extends [never] ? true : NotBuilt = true;
void everyServiceBuilt;

export function createServices(db: Db, config: ServiceConfig, options: ServiceOptions = {}): Services {
  const events = new EventBus(options.eventLog ?? SILENT_LOGGER);
  const { holdDeviceTypes: _lent, ...services } = buildModules(serverModules, {
    db,
    config,
    options,
    events,
  });
  return services;
}
