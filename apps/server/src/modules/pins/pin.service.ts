import {
  type CommandState,
  FINAL_COMMAND_STATES,
  OPEN_REFUSAL_CODES,
  type Page,
  type PageQuery,
  Permission,
  PIN_MASK,
  type PinForm,
  type PinRow,
  type PinSearch,
  ResultCode,
} from '@uiot/contracts';
import {
  deletePinParams,
  derivePin,
  PIN_SLOTS,
  type PinSpec,
  pinRef,
  specOfRef,
} from '@uiot/device-protocol';
import type { Db } from '../../db/client.ts';
import { lockForTransaction } from '../../db/locks.ts';
import { AppError } from '../../http/app-error.ts';
import type { SessionUser } from '../../http/request-context.ts';
import { errorMessage, type ModuleLogger } from '../../lib/module-logger.ts';
import type { CommandService, CommandUpdate } from '../commands/index.ts';
import type { DeviceCredentials } from '../iot/index.ts';
import type { OperationService, PinOpening } from '../tasks/index.ts';
import {
  confirmDeletion,
  confirmErased,
  disableUpTo,
  eraseCodeUsed,
  findPin,
  insertEraseCode,
  insertPin,
  latestEraseHour,
  pendingDeletions,
  queryPins,
  recordUse,
  revoke,
  setDeletionCommand,
  takenRefs,
} from './pin.repository.ts';
import {
  decisionMoments,
  deletionExpirySeconds,
  eraseHour,
  type PlannedPin,
  pinUseState,
  planPin,
  startHourOfPlan,
  weekdaysOf,
} from './pin-rules.ts';
import type { OfflinePinRow } from './pins.schema.ts';

/** The command that tells a lock to refuse a PIN from now on (docs/offline-pins.md). */
export const DELETE_PIN_COMMAND = { cmdCode: 'deletePin', name: 'deletePin (offline PIN)', maxRetransmit: 3 };

/** A lock's PIN reports in a committed batch (ingest's `pinReports`). */
export interface ReportedPins {
  deviceId: string;
  reports: readonly { messageId: string; at: number; event: 'pinUsed' | 'pinLockout'; ref: string | null }[];
}

export interface PinServiceOptions {
  db: Db;
  operations: Pick<OperationService, 'decidePin' | 'pinOpeningsReported'>;
  credentials: Pick<DeviceCredentials, 'pinSecretOf'>;
  commands: Pick<CommandService, 'issue' | 'stateOf'>;
  logger: ModuleLogger;
  now?: (() => Date) | undefined;
}

/**
 * Offline PINs (docs/offline-pins.md): generated for a staff member the "who may open" decision allows over
 * the whole window, answered once and never kept; revoked with a deletePin command the lock is sent whenever
 * it is heard until it confirms; erase codes; uses the locks report become operation records.
 */
export class PinService {
  private readonly db: Db;
  private readonly now: () => Date;

  constructor(private readonly options: PinServiceOptions) {
    this.db = options.db;
    this.now = options.now ?? (() => new Date());
  }

  async query(search: PinSearch, page: PageQuery, user: SessionUser): Promise<Page<PinRow>> {
    const now = this.now();
    const found = await queryPins(this.db, search, page, now);
    return { total: found.total, rows: found.rows.map((row) => this.rowOf(row, user, now.getTime())) };
  }

  /** Generates a PIN and answers its code, the only time it is shown. */
  async generate(form: PinForm, user: SessionUser): Promise<{ pin: PinRow; code: string }> {
    const now = this.now();
    const planned = planPin(form, now.getTime());
    if ('issues' in planned) throw AppError.invalid(planned.issues);
    const { plan } = planned;
    const secret = await this.options.credentials.pinSecretOf(form.deviceId);
    const decision = await this.options.operations.decidePin(
      form.userId,
      form.deviceId,
      decisionMoments(plan),
    );
    if (!decision.allowed) throw new AppError(OPEN_REFUSAL_CODES[decision.refusal]);
    if (!secret) throw new AppError(ResultCode.PinNoSecret);
    const { device } = decision;
    const stored = await this.db.transaction(async (tx) => {
      await lockForTransaction(tx, `pins.device:${device.id}`);
      const erased = await latestEraseHour(tx, device.id);
      if (erased !== null && startHourOfPlan(plan) <= erased)
        throw new AppError(ResultCode.PinStartsBeforeErase);
      const spec = await this.freeSpec(tx, device.id, plan);
      const row = await insertPin(tx, {
        stationId: device.stationId,
        deviceId: device.id,
        deviceName: device.name,
        type: plan.type,
        ref: pinRef(spec),
        startHour: startHourOfPlan(plan),
        startTime: new Date(plan.start),
        endTime: new Date(plan.end),
        weekdays: plan.type === 'weekly' ? plan.weekdays : 0,
        activationDeadline: new Date(plan.deadline),
        generatorId: user.staffId,
        generatorName: user.staffName,
        userId: form.userId,
        userName: decision.staffName,
        reason: form.reason,
        taskId: decision.taskId,
        taskName: decision.taskName,
        authorizationId: decision.authorizationId,
      });
      return { row, spec };
    });
    return { pin: this.rowOf(stored.row, user, now.getTime()), code: derivePin(secret, stored.spec) };
  }

  /** The spec of a plan with the first slot nobody had (once, time-period), or the weekly one if free. */
  private async freeSpec(tx: Db, deviceId: string, plan: PlannedPin): Promise<PinSpec> {
    if (plan.type === 'weekly') {
      const spec: PinSpec = {
        type: 'weekly',
        startWeek: plan.startWeek,
        weeks: plan.weeks,
        weekdays: plan.weekdays,
      };
      if ((await takenRefs(tx, deviceId, [pinRef(spec)])).size > 0)
        throw new AppError(ResultCode.PinWeeklyTaken);
      return spec;
    }
    const specs: PinSpec[] = Array.from({ length: PIN_SLOTS }, (_, slot) => ({
      type: plan.type,
      slot,
      startHour: plan.startHour,
    }));
    const taken = await takenRefs(tx, deviceId, specs.map(pinRef));
    const free = specs.find((spec) => !taken.has(pinRef(spec)));
    if (!free) throw new AppError(ResultCode.PinSlotsFull);
    return free;
  }

  /** Disables a PIN; the lock is told at once if it listens, else when it is next heard. */
  async revoke(id: string, user: SessionUser): Promise<PinRow> {
    const now = this.now();
    const current = await findPin(this.db, id);
    if (!current) throw new AppError(ResultCode.NotFound);
    if (pinUseState(factsOf(current), now.getTime()).useState !== 'enabled') {
      throw new AppError(ResultCode.PinNotRevocable);
    }
    const revoked = await revoke(this.db, id, now, user.staffName);
    if (!revoked) throw new AppError(ResultCode.PinNotRevocable);
    this.watched.add(revoked.deviceId);
    const sent = await this.sendDeletion(revoked, user);
    return this.rowOf(sent, user, now.getTime());
  }

  /**
   * An erase code for a lock (answered once): every live PIN starting in this hour or before is disabled now,
   * and confirmed deleted when the lock reports the code used. New PINs start from the next hour.
   */
  async eraseCode(
    deviceId: string,
    user: SessionUser,
  ): Promise<{ code: string; validUntil: string; disabled: number }> {
    const now = this.now();
    const secret = await this.options.credentials.pinSecretOf(deviceId);
    if (!secret) throw new AppError(ResultCode.PinNoSecret);
    const { hour, validUntil } = eraseHour(now.getTime());
    const disabled = await this.db.transaction(async (tx) => {
      await lockForTransaction(tx, `pins.device:${deviceId}`);
      await insertEraseCode(tx, { deviceId, hour, issuedByName: user.staffName });
      return disableUpTo(tx, deviceId, hour, now, user.staffName);
    });
    if (disabled.length > 0) this.watched.add(deviceId);
    return {
      code: derivePin(secret, { type: 'erase', hour }),
      validUntil: new Date(validUntil).toISOString(),
      disabled: disabled.length,
    };
  }

  /**
   * PIN reports the locks sent (ingest's committed batches): a use counts on its PIN and becomes an
   * operation record; a used erase code confirms what it erased.
   */
  async reported(batches: readonly ReportedPins[]): Promise<void> {
    const openings: PinOpening[] = [];
    for (const { deviceId, reports } of batches) {
      for (const report of reports) {
        if (report.event !== 'pinUsed') continue;
        const spec = report.ref ? specOfRef(report.ref) : null;
        const at = new Date(report.at);
        if (spec?.type === 'erase') {
          if (await eraseCodeUsed(this.db, deviceId, spec.hour, at)) {
            await confirmErased(this.db, deviceId, spec.hour, at);
          }
          continue;
        }
        const pin = spec ? await recordUse(this.db, deviceId, report.ref!, at) : null;
        openings.push({
          deviceId,
          messageId: report.messageId,
          at: report.at,
          pin: pin && {
            userId: pin.userId,
            userName: pin.userName,
            taskId: pin.taskId,
            taskName: pin.taskName,
            authorizationId: pin.authorizationId,
          },
        });
      }
    }
    if (openings.length > 0) await this.options.operations.pinOpeningsReported(openings);
  }

  /** deletePin commands moved on: a success confirms its PIN's deletion. */
  async commandsChanged(updates: readonly CommandUpdate[]): Promise<void> {
    for (const { command } of updates) {
      if (command.cmdCode !== DELETE_PIN_COMMAND.cmdCode || command.state !== 'Success') continue;
      await confirmDeletion(this.db, command.id, this.now());
    }
  }

  /** Devices with disabled PINs they have not confirmed: their reports are watched to send the deletion. */
  private watched = new Set<string>();

  /** Reads again which devices have deletions waiting (at start, and now and then for other instances' ones). */
  async refreshWatched(): Promise<void> {
    this.watched = new Set((await pendingDeletions(this.db, null, this.now())).map((pin) => pin.deviceId));
  }

  /**
   * Devices were heard (a committed batch): a lock that wakes is sent the deletions it has not confirmed,
   * unless the last deletePin of the PIN is still under way.
   */
  async devicesHeard(deviceIds: readonly string[]): Promise<void> {
    const woke = deviceIds.filter((id) => this.watched.has(id));
    if (woke.length === 0) return;
    const pending = await pendingDeletions(this.db, woke, this.now());
    const still = new Set(pending.map((pin) => pin.deviceId));
    for (const id of woke) if (!still.has(id)) this.watched.delete(id);
    for (const pin of pending) {
      if (pin.deletionCommandId) {
        const current = await this.options.commands.stateOf(this.db, pin.deletionCommandId);
        if (current && !FINAL_COMMAND_STATES.includes(current.state as CommandState)) continue;
      }
      await this.sendDeletion(pin, null);
    }
  }

  private async sendDeletion(pin: OfflinePinRow, user: SessionUser | null): Promise<OfflinePinRow> {
    const spec = specOfRef(pin.ref);
    if (!spec || spec.type === 'erase') return pin;
    try {
      const command = await this.options.commands.issue({
        deviceId: pin.deviceId,
        cmdCode: DELETE_PIN_COMMAND.cmdCode,
        name: DELETE_PIN_COMMAND.name,
        params: { ...deletePinParams(spec) },
        expireSeconds: deletionExpirySeconds(pin.endTime.getTime(), this.now().getTime()),
        maxRetransmit: DELETE_PIN_COMMAND.maxRetransmit,
        staff: user ? { id: user.staffId, name: user.staffName } : undefined,
      });
      await setDeletionCommand(this.db, pin.id, command.id);
      const confirmed =
        command.state === 'Success' ? await confirmDeletion(this.db, command.id, this.now()) : [];
      return confirmed[0] ?? { ...pin, deletionCommandId: command.id };
    } catch (error) {
      // The PIN stays disabled and pending: the lock is told when it is next heard.
      this.options.logger.warn(
        { pin: pin.id, device: pin.deviceId, error: errorMessage(error) },
        'a deletePin command could not be issued',
      );
      return pin;
    }
  }

  private rowOf(row: OfflinePinRow, user: SessionUser, now: number): PinRow {
    const { useState, pendingDeletion } = pinUseState(factsOf(row), now);
    const holds = (key: string) => user.isAdmin || user.permissions.has(key);
    return {
      id: row.id,
      stationId: row.stationId,
      deviceId: row.deviceId,
      deviceName: row.deviceName,
      type: row.type,
      code: PIN_MASK,
      createTime: row.createdAt.toISOString(),
      startTime: row.startTime.toISOString(),
      endTime: row.endTime.toISOString(),
      weekdays: weekdaysOf(row.weekdays),
      activationDeadline: row.activationDeadline.toISOString(),
      useState,
      pendingDeletion,
      generatorName: row.generatorName,
      userId: row.userId,
      userName: row.userName,
      reason: row.reason,
      taskName: row.taskName,
      byAuthorization: row.authorizationId !== null,
      usageTime: row.usageTime?.toISOString() ?? null,
      lastUsedTime: row.lastUsedTime?.toISOString() ?? null,
      useCount: row.useCount,
      revokedAt: row.revokedAt?.toISOString() ?? null,
      revokedByName: row.revokedByName,
      abilities: { revoke: holds(Permission.PinRevoke) && useState === 'enabled' },
    };
  }
}

function factsOf(row: OfflinePinRow) {
  return {
    type: row.type,
    endTime: row.endTime.getTime(),
    activationDeadline: row.activationDeadline.getTime(),
    usageTime: row.usageTime?.getTime() ?? null,
    revokedAt: row.revokedAt?.getTime() ?? null,
    deletionConfirmedAt: row.deletionConfirmedAt?.getTime() ?? null,
  };
}
