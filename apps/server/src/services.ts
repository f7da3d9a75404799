import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import { EventBus } from './infra/events/event-bus.ts';
import { FileService, type FileServiceOptions } from './infra/files/file.service.ts';
import type { FileStore } from './infra/files/file-store.ts';
import { openFileStore } from './infra/files/open-file-store.ts';
import { type ModuleLogger, SILENT_LOGGER } from './lib/module-logger.ts';
import { LogQueryService, OpLogService } from './modules/admin/index.ts';
import { type AuthService, createAuthServices, type SessionService } from './modules/auth/index.ts';
import { CommandRecordService, CommandService } from './modules/commands/index.ts';
import { createDevicesServices, type DevicesServices, holdDeviceTypes } from './modules/devices/index.ts';
import type { IngestOptions } from './modules/iot/index.ts';
import { createIotServices, DeviceCredentials, type IotServices } from './modules/iot/index.ts';
import { type MailLog, MailService, smtpTransport } from './modules/mail/index.ts';
import { createOrgServices, type OrgServices } from './modules/org/index.ts';
import { ParamService } from './modules/params/index.ts';
import { RegistrationService } from './modules/registration/index.ts';

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
  /** Device commands; their sender is attached when the device bus starts (system.ts). */
  commands: CommandService;
  /** Remote control records. */
  commandRecords: CommandRecordService;
  mail: MailService;
  registration: RegistrationService;
  logs: LogQueryService;
  /** The file store: uploads, what refers to them, the orphan sweep. */
  files: FileService;
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
}

export function createServices(
  db: Db,
  config: Pick<Config, 'sessionIdleSeconds' | 'sessionMaxSeconds'> &
    Partial<
      Pick<Config, 'smtpUrl' | 'nbCallbackSecrets' | 'commandRetransmitSeconds' | 'dataDir' | 'fileStore'>
    >,
  options: ServiceOptions = {},
): Services {
  const events = new EventBus(options.eventLog ?? SILENT_LOGGER);
  const params = new ParamService(db);
  const { sessions, auth } = createAuthServices(db, {
    policy: { idleSeconds: config.sessionIdleSeconds, maxSeconds: config.sessionMaxSeconds },
    params,
    events,
    now: options.now,
  });
  const deviceCredentials = new DeviceCredentials(db, events);
  const mail = new MailService(db, config.smtpUrl ? smtpTransport(config.smtpUrl) : null, options.mailLog);
  const commands = new CommandService({
    db,
    logger: options.commandLog ?? SILENT_LOGGER,
    events,
    ...(config.commandRetransmitSeconds ? { retransmitSeconds: config.commandRetransmitSeconds } : {}),
  });
  const iot = createIotServices(db, {
    logger: options.iotLog ?? SILENT_LOGGER,
    events,
    commands,
    nbCallbackSecrets: config.nbCallbackSecrets ?? {},
    ...(options.ingest ? { ingest: options.ingest } : {}),
    ...(options.exportMaxRows ? { exportMaxRows: options.exportMaxRows } : {}),
  });
  const files = new FileService(
    db,
    options.fileStore ??
      openFileStore({
        dataDir: config.dataDir ?? mkdtempSync(path.join(tmpdir(), 'uiot-files-')),
        fileStore: config.fileStore,
      }),
    options.files,
  );
  // Answers that ingest applied to commands are command changes like any other.
  return {
    events,
    sessions,
    params,
    auth,
    opLog: new OpLogService(db),
    org: createOrgServices(db, sessions, params, files, holdDeviceTypes),
    devices: createDevicesServices(db, params, deviceCredentials),
    deviceCredentials,
    commands,
    commandRecords: new CommandRecordService(db),
    iot,
    mail,
    registration: new RegistrationService(db, params, mail, options.now),
    logs: new LogQueryService(db, { exportMaxRows: options.exportMaxRows }),
    files,
  };
}
