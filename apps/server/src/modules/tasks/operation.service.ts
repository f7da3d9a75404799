import {
  type CommandState,
  csvFile,
  EXPORT_MAX_ROWS,
  FINAL_COMMAND_STATES,
  type Lang,
  OPEN_REFUSAL_CODES,
  type OpenRefusal,
  type OperationAction,
  type OperationRecordRow,
  type OperationRecordSearch,
  type Page,
  type PageQuery,
  ResultCode,
  SYSTEM_COMMAND_NAMES,
  type TodayDeviceOp,
} from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { type KeysetPosition, keysetBatches } from '../../db/keyset.ts';
import { AppError } from '../../http/app-error.ts';
import type { CsvExport } from '../../http/csv-reply.ts';
import type { SessionUser } from '../../http/request-context.ts';
import { timeRange } from '../../http/time-range.ts';
import type { EventBus } from '../../infra/events/event-bus.ts';
import type { FileContent, FileService } from '../../infra/files/file.service.ts';
import { consoleDay } from '../../lib/console-day.ts';
import { errorMessage, type ModuleLogger } from '../../lib/module-logger.ts';
import { cellsOf, exportFileName, headerOf } from '../admin/index.ts';
import type { CommandService, CommandUpdate } from '../commands/index.ts';
import './events.ts';
import {
  mayClose,
  mayOpen,
  type OpenFacts,
  type OpeningCover,
  reportedOpeningCover,
} from './open-decision.ts';
import {
  coverCandidates,
  loadOpening,
  type OpeningDevice,
  openingDevice,
  openingDevices,
} from './opening-facts.repository.ts';
import {
  countRecordsUpTo,
  insertRecord,
  insertRecordOnce,
  type NewRecord,
  PHOTO_REF,
  queryRecords,
  type RecordSearch,
  recordedOpeningBetween,
  recordsAfter,
  recordsByIds,
  setCommand,
  updateByCommand,
} from './operation-record.repository.ts';
import { operationExportColumns } from './operation-words.ts';

/**
 * The device commands of remote operations: a remote opening must happen while the operator is there to see
 * it, so it is not acted on after a minute, and sent at most twice more.
 */
export const REMOTE_COMMANDS = {
  open: { cmdCode: 'open', name: SYSTEM_COMMAND_NAMES.open, expireSeconds: 60, maxRetransmit: 2 },
  close: { cmdCode: 'close', name: SYSTEM_COMMAND_NAMES.close, expireSeconds: 60, maxRetransmit: 2 },
} as const satisfies Record<
  OperationAction,
  { cmdCode: string; name: string; expireSeconds: number; maxRetransmit: number }
>;

const REMOTE_CMD_CODES: ReadonlySet<string> = new Set(Object.values(REMOTE_COMMANDS).map((c) => c.cmdCode));
const SUCCESS_STATES: ReadonlySet<CommandState> = new Set(['Success', 'NB_Successful']);

/** What a command state means for the record of its remote operation: null while it is under way. */
export function resultOfCommand(state: CommandState): 'succeeded' | 'failed' | null {
  if (!FINAL_COMMAND_STATES.includes(state)) return null;
  return SUCCESS_STATES.has(state) ? 'succeeded' : 'failed';
}

/** The task or authorisation an opening is recorded under (none: nothing covered it, or a close). */
function grantOf(
  cover: OpeningCover,
  taskNames: ReadonlyMap<string, string>,
): Pick<NewRecord, 'taskId' | 'taskName' | 'authorizationId'> | Record<never, never> {
  if (cover === null) return {};
  if (cover.by === 'task') return { taskId: cover.taskId, taskName: taskNames.get(cover.taskId) ?? null };
  return { authorizationId: cover.authorizationId };
}

/** A remote open asks the opening decision, a remote close the closing one; an allowed open names its cover. */
function remoteDecision(
  action: OperationAction,
  at: number,
  facts: OpenFacts,
): { allowed: false; refusal: OpenRefusal } | { allowed: true; cover: OpeningCover } {
  if (action === 'close') {
    const decision = mayClose(facts);
    return decision.allowed ? { allowed: true, cover: null } : decision;
  }
  const decision = mayOpen({ at, method: 'remote' }, facts);
  return decision.allowed ? { allowed: true, cover: decision } : decision;
}

/** A lock's reported openings in a committed batch (ingest's `unlocks`). */
export interface ReportedOpenings {
  deviceId: string;
  /** `at`: when the lock says it opened (ingest's `eventTime`); `receivedAt`: when its report came in. */
  unlocks: readonly { messageId: string; at: number; receivedAt: number }[];
}

/** A lock's report that an offline PIN opened it, with the PIN it names (null: no PIN of the server). */
export interface PinOpening {
  deviceId: string;
  messageId: string;
  at: number;
  pin: {
    userId: string;
    userName: string | null;
    taskId: string | null;
    taskName: string | null;
    authorizationId: string | null;
  } | null;
}

/** How long before a lock reports an opening a remote or client opening of it counts as its cause. */
const ASKED_OPENING_MS = 120_000;
/** How far the server's clock of the asked opening may run after the lock's report. */
const CLOCK_SKEW_MS = 5_000;

export interface OperationServiceOptions {
  db: Db;
  commands: Pick<CommandService, 'issue' | 'stateOf'>;
  files: Pick<FileService, 'attachedTo' | 'content'>;
  events: EventBus;
  logger: ModuleLogger;
  now?: (() => Date) | undefined;
  /** Most rows one export may hold (EXPORT_MAX_ROWS; smaller in tests). */
  exportMaxRows?: number | undefined;
}

/**
 * Operation records and remote operations (spec §3 Operation record; docs/lock-tasks.md): a remote open is
 * decided by `mayOpen` for the signed-in staff member now, recorded whatever the answer, and, when allowed,
 * sent as a device command whose answer completes the record. Every record made or moved on is announced
 * (`operation.recorded`) for the console's live topic.
 */
export class OperationService {
  private readonly db: Db;
  private readonly now: () => Date;

  constructor(private readonly options: OperationServiceOptions) {
    this.db = options.db;
    this.now = options.now ?? (() => new Date());
  }

  query(search: OperationRecordSearch, page: PageQuery, lang: Lang): Promise<Page<OperationRecordRow>> {
    const range = timeRange(search, { required: false, maxOneYear: false }, lang);
    return queryRecords(this.db, this.searchOf(search, range), page);
  }

  /** Today's records (the console's day), newest first, at most `limit`, and how many there are. */
  async today(limit: number): Promise<TodayDeviceOp> {
    const page = await queryRecords(
      this.db,
      { from: consoleDay(this.now().getTime()).start },
      { pageIndex: 1, pageSize: limit },
    );
    return { total: page.total, rows: page.rows };
  }

  /** CSV of a time range (required, at most a year), newest first, at most EXPORT_MAX_ROWS rows. */
  async export(search: OperationRecordSearch, lang: Lang): Promise<CsvExport> {
    const range = timeRange(search, { required: true, maxOneYear: true }, lang);
    const found = this.searchOf(search, range);
    const maxRows = this.options.exportMaxRows ?? EXPORT_MAX_ROWS;
    if ((await countRecordsUpTo(this.db, found, maxRows + 1)) > maxRows) {
      throw new AppError(ResultCode.ExportTooLarge);
    }
    const rows = keysetBatches<OperationRecordRow, KeysetPosition<string>>(
      (after, limit) => recordsAfter(this.db, found, after, limit),
      { maxRows, batchSize: 1000 },
    );
    const columns = operationExportColumns(lang);
    return {
      fileName: exportFileName('operation-record', range.start!, range.end!),
      content: csvFile(headerOf(columns, lang), rows, cellsOf(columns)),
    };
  }

  /** The live photo a client attached to a record; 404 when the record or its photo is not there. */
  async photo(id: string): Promise<FileContent> {
    const [file] = await this.options.files.attachedTo({ type: PHOTO_REF, id });
    if (!file) throw new AppError(ResultCode.NotFound);
    return this.options.files.content(file);
  }

  /**
   * Opens an IoT lock remotely for the signed-in staff member, if a task or an authorisation allows it now.
   * A refusal is recorded, then answered with its reason's result code (the record in its data).
   */
  remoteOpen(deviceId: string, user: SessionUser): Promise<OperationRecordRow> {
    return this.remote('open', deviceId, user);
  }

  /** Closes (locks) an IoT lock remotely: the account and the device-type grant are checked; recorded. */
  remoteClose(deviceId: string, user: SessionUser): Promise<OperationRecordRow> {
    return this.remote('close', deviceId, user);
  }

  /**
   * Openings IoT locks reported (ingest's committed batches): each becomes a record, once, unless it is a
   * remote opening allowed just before or one a client uploaded (decided then: that one is recorded already,
   * and alarmed if nothing covered it). One that no task or
   * authorisation in force covered is announced (`opening.uncovered`) and raises an alarm.
   */
  async openingsReported(reports: readonly ReportedOpenings[]): Promise<void> {
    const recorded: OperationRecordRow[] = [];
    const devices = await openingDevices(
      this.db,
      reports.map((r) => r.deviceId),
    );
    for (const report of reports) {
      const device = devices.get(report.deviceId);
      if (!device) continue;
      for (const unlock of report.unlocks) {
        const at = new Date(unlock.at);
        // The lock's clock may run behind or ahead of the server's: an opening asked shortly before either
        // the lock's time or the report's arrival is the cause.
        const asked = await recordedOpeningBetween(
          this.db,
          device.id,
          new Date(Math.min(unlock.at, unlock.receivedAt) - ASKED_OPENING_MS),
          new Date(Math.max(unlock.at, unlock.receivedAt) + CLOCK_SKEW_MS),
        );
        if (asked) continue;
        const candidates = await coverCandidates(this.db, device.id, at);
        const cover = reportedOpeningCover(unlock.at, device.id, candidates.tasks, candidates.authorizations);
        const record = await this.recordReportedOpening(device, unlock, null, {
          ...grantOf(cover, candidates.taskNames),
          opMethod: null,
          covered: cover !== null,
        });
        if (record) recorded.push(record);
      }
    }
    this.announce(recorded);
  }

  /**
   * Stores an opening a lock reported, once (by the lock's message id), and announces one nothing covered
   * (`opening.uncovered`): the alarms module raises its alarm.
   */
  private async recordReportedOpening(
    device: OpeningDevice,
    opening: { messageId: string; at: number },
    staff: { id: string; name: string } | null,
    how: Pick<NewRecord, 'opMethod' | 'covered'> &
      Partial<Pick<NewRecord, 'taskId' | 'taskName' | 'authorizationId'>>,
  ): Promise<OperationRecordRow | null> {
    const record = await insertRecordOnce(this.db, {
      ...this.recordBase(device, 'open', opening.at, staff),
      ...how,
      source: 'device',
      result: 'reported',
      clientRecordId: `lock:${device.id}:${opening.messageId}`,
    });
    if (record && !how.covered) {
      this.options.events.publish('opening.uncovered', {
        recordId: record.id,
        deviceId: device.id,
        stationId: device.stationId,
        at: opening.at,
      });
    }
    return record;
  }

  /**
   * The "who may open" decision for an offline PIN (docs/offline-pins.md): the staff member it is for must be
   * allowed to open the device by PIN at every moment asked (the first and last of the PIN's window), under
   * the same kind of grant; the answer names the task or authorisation of the first moment.
   */
  async decidePin(
    staffId: string,
    deviceId: string,
    moments: readonly number[],
  ): Promise<
    | { allowed: false; refusal: OpenRefusal }
    | {
        allowed: true;
        device: OpeningDevice;
        staffName: string | null;
        taskId: string | null;
        taskName: string | null;
        authorizationId: string | null;
      }
  > {
    const device = await openingDevice(this.db, deviceId);
    if (!device) throw new AppError(ResultCode.NotFound);
    const loaded = await loadOpening(this.db, { staffId, device });
    let first: OpeningCover = null;
    for (const at of moments) {
      const decision = mayOpen({ at, method: 'pin' }, loaded.facts);
      if (!decision.allowed) return decision;
      first ??= decision;
    }
    const grant = grantOf(first, loaded.taskNames) as Partial<NewRecord>;
    return {
      allowed: true,
      device,
      staffName: loaded.staffName,
      taskId: grant.taskId ?? null,
      taskName: grant.taskName ?? null,
      authorizationId: grant.authorizationId ?? null,
    };
  }

  /**
   * Openings by offline PIN the locks reported: each becomes a record once (by the lock's message id), under
   * the PIN's user and grant. A use of a PIN the server never issued is recorded as uncovered and announced
   * (`opening.uncovered`), as any opening nothing allowed.
   */
  async pinOpeningsReported(openings: readonly PinOpening[]): Promise<void> {
    const recorded: OperationRecordRow[] = [];
    // A batch's uses are mostly of few locks: they are read together, once each.
    const devices = await openingDevices(
      this.db,
      openings.map((o) => o.deviceId),
    );
    for (const opening of openings) {
      const device = devices.get(opening.deviceId);
      if (!device) continue;
      const { pin } = opening;
      const record = await this.recordReportedOpening(
        device,
        opening,
        pin ? { id: pin.userId, name: pin.userName ?? '' } : null,
        {
          taskId: pin?.taskId ?? null,
          taskName: pin?.taskName ?? null,
          authorizationId: pin?.authorizationId ?? null,
          opMethod: 'pin',
          covered: pin !== null,
        },
      );
      if (record) recorded.push(record);
    }
    this.announce(recorded);
  }

  /** Remote operations' commands moved on: their records follow (the command service's `command.changed`). */
  async commandsChanged(updates: readonly CommandUpdate[]): Promise<void> {
    const changed: OperationRecordRow[] = [];
    for (const { command } of updates) {
      if (!REMOTE_CMD_CODES.has(command.cmdCode)) continue;
      const state = command.state as CommandState;
      changed.push(...(await updateByCommand(this.db, command.id, state, resultOfCommand(state))));
    }
    this.announce(changed);
  }

  private async remote(action: OperationAction, deviceId: string, user: SessionUser) {
    const device = await openingDevice(this.db, deviceId);
    if (!device) throw new AppError(ResultCode.NotFound);
    if (device.category !== 'IoT' || !device.regist) throw new AppError(ResultCode.DeviceNotIot);
    const at = this.now().getTime();
    const loaded = await loadOpening(this.db, { staffId: user.staffId, device });
    const base = this.recordBase(device, action, at, {
      id: user.staffId,
      name: loaded.staffName ?? user.staffName,
    });

    const decision = remoteDecision(action, at, loaded.facts);
    if (!decision.allowed) {
      const refused = await insertRecord(this.db, { ...base, result: 'refused', refusal: decision.refusal });
      this.announce([refused]);
      throw new AppError(OPEN_REFUSAL_CODES[decision.refusal], { data: refused });
    }
    const grant = grantOf(decision.cover, loaded.taskNames);
    // Stored before the command leaves, so that the lock's answer always finds its record.
    const record = await insertRecord(this.db, { ...base, ...grant, result: 'sent' });
    this.announce([record]);
    return this.send(record, action, user);
  }

  /** Sends the record's command and ties them; an answer that came first is caught up with. */
  private async send(
    record: OperationRecordRow,
    action: OperationAction,
    user: SessionUser,
  ): Promise<OperationRecordRow> {
    const spec = REMOTE_COMMANDS[action];
    let commandId: string;
    try {
      const command = await this.options.commands.issue({
        deviceId: record.deviceId!,
        cmdCode: spec.cmdCode,
        name: spec.name,
        expireSeconds: spec.expireSeconds,
        maxRetransmit: spec.maxRetransmit,
        staff: { id: user.staffId, name: user.staffName },
      });
      commandId = command.id;
    } catch (error) {
      this.options.logger.warn(
        { record: record.id, device: record.deviceId, error: errorMessage(error) },
        'a remote operation could not be issued; its record ends as failed',
      );
      const [failed] = await setCommand(this.db, record.id, null, 'failed');
      if (failed) this.announce([failed]);
      throw error;
    }
    const [tied] = await setCommand(this.db, record.id, commandId, null);
    const current = await this.options.commands.stateOf(this.db, commandId);
    const state = current?.state ?? 'Waitting';
    const [answered] = await updateByCommand(this.db, commandId, state, resultOfCommand(state));
    if (answered) {
      this.announce([answered]);
      return answered;
    }
    // The lock's answer came in between and `commandsChanged` already moved the record on (and announced it):
    // answer the record as it now stands, never the copy from before the answer.
    const [now] = await recordsByIds(this.db, [record.id]);
    return now ?? tied ?? record;
  }

  private recordBase(
    device: OpeningDevice,
    action: OperationAction,
    at: number,
    staff: { id: string; name: string } | null,
  ): Omit<NewRecord, 'result'> {
    return {
      stationId: device.stationId,
      deviceId: device.id,
      deviceName: device.name,
      deviceCode: device.code,
      staffId: staff?.id ?? null,
      staffName: staff?.name ?? null,
      keyId: null,
      keyName: null,
      lockCode: null,
      taskId: null,
      taskName: null,
      authorizationId: null,
      action,
      opMethod: 'remote',
      source: 'console',
      refusal: null,
      commandId: null,
      commandState: null,
      covered: null,
      photoFileId: null,
      operateTime: new Date(at),
    };
  }

  private searchOf(
    search: OperationRecordSearch,
    range: { start: Date | null; end: Date | null },
  ): RecordSearch {
    const { startTime: _start, endTime: _end, ...rest } = search;
    return { ...rest, from: range.start ?? undefined, to: range.end ?? undefined };
  }

  private announce(records: OperationRecordRow[]): void {
    if (records.length > 0) this.options.events.publish('operation.recorded', { records });
  }
}
