import { randomInt } from 'node:crypto';
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
  SYSTEM_COMMAND_NAMES,
} from '@uiot/contracts';
import {
  deletePinParams,
  deleteStoredPinParams,
  derivePin,
  PIN_SLOTS,
  type PinSpec,
  pinRef,
  setPinParams,
  specOfRef,
  storedPinIdOfRef,
  storedPinRef,
} from '@uiot/device-protocol';
import type { Db } from '../../db/client.ts';
import { lockForTransaction } from '../../db/locks.ts';
import { AppError } from '../../http/app-error.ts';
import type { SessionUser } from '../../http/request-context.ts';
import type { EventBus } from '../../infra/events/event-bus.ts';
import { errorMessage, type ModuleLogger } from '../../lib/module-logger.ts';
import type { CommandService, CommandUpdate } from '../commands/index.ts';
import type { DeviceCredentials } from '../iot/index.ts';
import type { OperationService, PinOpening } from '../tasks/index.ts';
import {
  confirmDeletion,
  confirmDelivery,
  confirmErased,
  disableDerived,
  disableUpTo,
  drawCode,
  dropExpiredPendingCodes,
  eraseCodeUsed,
  findPin,
  insertEraseCode,
  insertPin,
  latestEraseHour,
  markCodeShown,
  nextStoredId,
  pendingLockWork,
  pinForUpdate,
  queryPins,
  recordUse,
  revoke,
  setDeletionCommand,
  setDeliveryCommand,
  takenRefs,
} from './pin.repository.ts';
import {
  decisionMoments,
  deletionExpirySeconds,
  eraseHour,
  keepsCode,
  mayShowCode,
  type PinCodeFacts,
  type PlannedPin,
  pinUseState,
  planPin,
  startHourOfPlan,
  weekdaysOf,
} from './pin-rules.ts';
import type { OfflinePinRow } from './pins.schema.ts';
import './events.ts';

/** The command that tells a lock to refuse a PIN from now on (docs/offline-pins.md). */
export const DELETE_PIN_COMMAND = {
  cmdCode: 'deletePin',
  name: SYSTEM_COMMAND_NAMES.deletePin,
  maxRetransmit: 3,
};
/** The command that gives a lock a PIN to keep (durable, custom LoRaWAN). */
export const SET_PIN_COMMAND = { cmdCode: 'setPin', name: SYSTEM_COMMAND_NAMES.setPin, maxRetransmit: 3 };

/** A lock's PIN reports in a committed batch (ingest's `pinReports`). */
export interface ReportedPins {
  deviceId: string;
  stationId: string;
  reports: readonly { messageId: string; at: number; event: 'pinUsed' | 'pinLockout'; ref: string | null }[];
}

export interface PinServiceOptions {
  db: Db;
  operations: Pick<OperationService, 'decidePin' | 'pinOpeningsReported'>;
  credentials: Pick<DeviceCredentials, 'pinSecretOf'>;
  commands: Pick<CommandService, 'issue' | 'stateOf'>;
  events: EventBus;
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

  /**
   * Generates a PIN and answers its code, the only time it is shown. A derived PIN is complete at once; a
   * custom LoRaWAN one is sent to its lock now and whenever the lock is heard until it confirms. A durable
   * PIN's code is drawn only when its lock wakes (spec §4): it answers no code, and its generator is shown
   * the code once from then on (`showCode`).
   */
  async generate(form: PinForm, user: SessionUser): Promise<{ pin: PinRow; code: string | null }> {
    const now = this.now();
    const planned = planPin(form, now.getTime());
    if ('issues' in planned) throw AppError.invalid(planned.issues);
    const { plan } = planned;
    const decision = await this.options.operations.decidePin(
      form.userId,
      form.deviceId,
      decisionMoments(plan),
    );
    if (!decision.allowed) throw new AppError(OPEN_REFUSAL_CODES[decision.refusal]);
    const { device } = decision;
    const stored = form.algorithm === 'lorawan' || plan.type === 'durable';
    if (form.algorithm === 'lorawan' && device.netType !== 'LoRaWan') {
      throw AppError.invalid([{ path: 'algorithm', message: 'v.pinLorawanOnly' }]);
    }
    const secret = await this.options.credentials.pinSecretOf(device.id);
    if (stored ? !device.regist : !secret) throw new AppError(ResultCode.PinNoSecret);
    const made = await this.db.transaction(async (tx) => {
      await lockForTransaction(tx, `pins.device:${device.id}`);
      const erased = await latestEraseHour(tx, device.id);
      if (erased !== null && startHourOfPlan(plan) <= erased) {
        throw new AppError(ResultCode.PinStartsBeforeErase);
      }
      const base = {
        stationId: device.stationId,
        deviceId: device.id,
        deviceName: device.name,
        type: plan.type,
        algorithm: form.algorithm,
        startHour: startHourOfPlan(plan),
        startTime: new Date(plan.start),
        endTime: new Date(plan.end),
        weekdays: plan.type === 'weekly' ? plan.weekdays : 0,
        generatorId: user.staffId,
        generatorName: user.staffName,
        userId: form.userId,
        userName: decision.staffName,
        reason: form.reason,
        taskId: decision.taskId,
        taskName: decision.taskName,
        authorizationId: decision.authorizationId,
      };
      if (stored) {
        const storedId = await nextStoredId(tx, device.id);
        const code = plan.type === 'durable' ? null : drawStoredCode();
        // The lock keeps no activation state for a PIN it holds: the window alone decides.
        const row = await insertPin(tx, {
          ...base,
          ref: storedPinRef(storedId),
          storage: 'pending',
          storedId,
          pendingCode: code,
          codeShownAt: code === null ? null : now,
          activationDeadline: new Date(plan.end),
        });
        return { row, code };
      }
      const spec = await this.freeSpec(tx, device.id, plan);
      const row = await insertPin(tx, {
        ...base,
        ref: pinRef(spec),
        codeShownAt: now,
        activationDeadline: new Date(plan.deadline),
      });
      return { row, code: derivePin(secret!, spec) };
    });
    let row = made.row;
    if (stored) {
      this.watched.add(device.id);
      // A durable PIN waits for its lock to be heard: its code is drawn then (devicesHeard).
      if (made.code !== null) row = await this.sendStored(row, user);
    }
    return { pin: this.rowOf(row, user, now.getTime()), code: made.code };
  }

  /**
   * A durable PIN's code, drawn when its lock woke, answered once to whoever generated the PIN; kept by the
   * server only until the lock confirms it too (keepsCode).
   */
  async showCode(id: string, user: SessionUser): Promise<{ pin: PinRow; code: string }> {
    const now = this.now();
    const shown = await this.db.transaction(async (tx) => {
      const pin = await pinForUpdate(tx, id);
      if (!pin) throw new AppError(ResultCode.NotFound);
      if (pin.generatorId !== user.staffId) throw new AppError(ResultCode.PinCodeNotYours);
      if (pin.codeShownAt !== null) throw new AppError(ResultCode.PinCodeShown);
      const facts = codeFactsOf(pin);
      const { useState } = pinUseState(factsOf(pin), now.getTime());
      if (useState !== 'enabled') throw new AppError(ResultCode.PinNotRevocable);
      if (!mayShowCode(facts, useState, user.staffId)) throw new AppError(ResultCode.PinCodeNotDrawn);
      const code = pin.pendingCode!;
      const row = await markCodeShown(tx, id, now, keepsCode({ stored: facts.stored, shown: true }));
      return { row, code };
    });
    return { pin: this.rowOf(shown.row, user, now.getTime()), code: shown.code };
  }

  /** The spec of a plan with the first slot nobody had (once, time-period), or the weekly one if free. */
  private async freeSpec(tx: Db, deviceId: string, plan: PlannedPin): Promise<PinSpec> {
    if (plan.type === 'durable') throw new Error('a durable PIN is stored on its lock, not derived');
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

  /** The lock's PIN secret was replaced or withdrawn: the PINs derived from it are disabled. */
  async secretReplaced(deviceId: string, at: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      await lockForTransaction(tx, `pins.device:${deviceId}`);
      await disableDerived(tx, deviceId, at);
    });
  }

  /**
   * PIN reports the locks sent (ingest's committed batches): a use counts on its PIN and becomes an
   * operation record; a used erase code confirms what it erased.
   */
  async reported(batches: readonly ReportedPins[]): Promise<void> {
    const openings: PinOpening[] = [];
    for (const { deviceId, stationId, reports } of batches) {
      for (const report of reports) {
        if (report.event === 'pinLockout') {
          this.options.events.publish('pin.lockout', { deviceId, stationId, at: report.at });
          continue;
        }
        const spec = report.ref ? specOfRef(report.ref) : null;
        const at = new Date(report.at);
        if (spec?.type === 'erase') {
          if (await eraseCodeUsed(this.db, deviceId, spec.hour, at)) {
            await confirmErased(this.db, deviceId, spec.hour, at);
          }
          continue;
        }
        const known = spec !== null || (report.ref !== null && storedPinIdOfRef(report.ref) !== null);
        const pin = known ? await recordUse(this.db, deviceId, report.ref!, at) : null;
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

  /** PIN commands moved on: a deletePin's success confirms the deletion, a setPin's the delivery. */
  async commandsChanged(updates: readonly CommandUpdate[]): Promise<void> {
    for (const { command } of updates) {
      if (command.state !== 'Success') continue;
      if (command.cmdCode === DELETE_PIN_COMMAND.cmdCode)
        await confirmDeletion(this.db, command.id, this.now());
      if (command.cmdCode === SET_PIN_COMMAND.cmdCode) await confirmDelivery(this.db, command.id);
    }
  }

  /** Devices with disabled PINs they have not confirmed: their reports are watched to send the deletion. */
  private watched = new Set<string>();

  /**
   * Reads again which devices have deletions waiting (at start, and now and then for other instances' ones),
   * and forgets the codes of stored PINs that ended before their lock took them.
   */
  async refreshWatched(): Promise<void> {
    const now = this.now();
    await dropExpiredPendingCodes(this.db, now);
    this.watched = new Set((await pendingLockWork(this.db, null, now)).map((pin) => pin.deviceId));
  }

  /**
   * Devices were heard (a committed batch): a lock that wakes is sent the deletions it has not confirmed and
   * the stored PINs it does not hold yet, unless the last command for the PIN is still under way.
   */
  async devicesHeard(heard: readonly { deviceId: string }[]): Promise<void> {
    // Every committed batch comes here: nothing is read or built unless a lock has something waiting.
    if (this.watched.size === 0) return;
    const woke = heard.map((d) => d.deviceId).filter((id) => this.watched.has(id));
    if (woke.length === 0) return;
    const pending = await pendingLockWork(this.db, woke, this.now());
    const still = new Set(pending.map((pin) => pin.deviceId));
    for (const id of woke) if (!still.has(id)) this.watched.delete(id);
    for (const pin of pending) {
      const deleting = pin.revokedAt !== null;
      const last = deleting ? pin.deletionCommandId : pin.deliveryCommandId;
      if (last) {
        const current = await this.options.commands.stateOf(this.db, last);
        if (current && !FINAL_COMMAND_STATES.includes(current.state as CommandState)) continue;
      }
      await (deleting ? this.sendDeletion(pin, null) : this.sendStored(pin, null));
    }
  }

  /** Tells the lock to refuse a PIN (deletePin): a derived one by its counter, a stored one by its id. */
  private sendDeletion(pin: OfflinePinRow, user: SessionUser | null): Promise<OfflinePinRow> {
    const spec = specOfRef(pin.ref);
    const params =
      pin.storedId !== null
        ? deleteStoredPinParams(pin.storedId)
        : spec && spec.type !== 'erase'
          ? deletePinParams(spec)
          : null;
    if (!params) return Promise.resolve(pin);
    return this.sendToLock(pin, user, {
      command: DELETE_PIN_COMMAND,
      params: { ...params },
      tie: (id) => setDeletionCommand(this.db, pin.id, id),
      confirm: (id) => confirmDeletion(this.db, id, this.now()),
    });
  }

  /**
   * Sends a stored PIN to its lock (setPin) while the lock has not confirmed it. A durable PIN's code is drawn
   * here, the first time its lock is heard after its generation.
   */
  private async sendStored(waiting: OfflinePinRow, user: SessionUser | null): Promise<OfflinePinRow> {
    const pin =
      waiting.type === 'durable' && waiting.pendingCode === null && waiting.codeShownAt === null
        ? ((await drawCode(this.db, waiting.id, drawStoredCode())) ?? waiting)
        : waiting;
    if (pin.storedId === null || pin.pendingCode === null) return pin;
    const minute = 60_000;
    const params = setPinParams({
      id: pin.storedId,
      code: pin.pendingCode,
      kind: pin.type,
      fromMinute: Math.floor(pin.startTime.getTime() / minute),
      toMinute: Math.ceil(pin.endTime.getTime() / minute),
      weekdays: pin.weekdays,
    });
    return this.sendToLock(pin, user, {
      command: SET_PIN_COMMAND,
      params,
      tie: (id) => setDeliveryCommand(this.db, pin.id, id),
      confirm: (id) => confirmDelivery(this.db, id),
    });
  }

  /**
   * Issues a PIN's command and ties it to the PIN; an answer that came before the tie is taken. A command that could
   * not be issued leaves the PIN as it was: the lock is sent it when it is next heard.
   */
  private async sendToLock(
    pin: OfflinePinRow,
    user: SessionUser | null,
    send: {
      command: { cmdCode: string; name: string; maxRetransmit: number };
      params: Record<string, number>;
      tie: (commandId: string) => Promise<void>;
      confirm: (commandId: string) => Promise<OfflinePinRow[]>;
    },
  ): Promise<OfflinePinRow> {
    try {
      const command = await this.options.commands.issue({
        deviceId: pin.deviceId,
        cmdCode: send.command.cmdCode,
        name: send.command.name,
        params: send.params,
        expireSeconds: deletionExpirySeconds(pin.endTime.getTime(), this.now().getTime()),
        maxRetransmit: send.command.maxRetransmit,
        staff: user ? { id: user.staffId, name: user.staffName } : undefined,
      });
      await send.tie(command.id);
      // The lock may have answered before the command was tied to the PIN (its `command.changed` then found
      // no PIN to confirm): the state is read again once tied, and a success confirmed here (confirming twice
      // changes nothing).
      const current = await this.options.commands.stateOf(this.db, command.id);
      const confirmed = current?.state === 'Success' ? await send.confirm(command.id) : [];
      return confirmed[0] ?? (await findPin(this.db, pin.id)) ?? pin;
    } catch (error) {
      this.options.logger.warn(
        { pin: pin.id, device: pin.deviceId, command: send.command.cmdCode, error: errorMessage(error) },
        'a PIN command could not be issued; it is sent when the lock is next heard',
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
      algorithm: row.algorithm,
      storage: row.storage,
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
      abilities: {
        revoke: holds(Permission.PinRevoke) && useState === 'enabled',
        showCode: holds(Permission.PinGenerate) && mayShowCode(codeFactsOf(row), useState, user.staffId),
      },
    };
  }
}

/** The code a stored PIN is given: 9 random digits, the first not 0 (docs/offline-pins.md). */
function drawStoredCode(): string {
  return String(randomInt(100_000_000, 1_000_000_000));
}

function codeFactsOf(row: OfflinePinRow): PinCodeFacts {
  return {
    generatorId: row.generatorId,
    drawn: row.pendingCode !== null,
    stored: row.storage === 'stored',
    shown: row.codeShownAt !== null,
  };
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
