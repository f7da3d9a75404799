import { type ReplacementRow, type ReplacementStep, ResultCode } from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { lockForTransaction } from '../../db/locks.ts';
import { AppError } from '../../http/app-error.ts';
import {
  findCandidate,
  findReplacementRow,
  findStoredReplacement,
  insertReplacement,
  latestReplacementRowOf,
  markRegistered,
  markUnregistered,
  moveInformation,
  permanentPasswordOf,
  type StoredReplacement,
  saveProgress,
  setPermanentPassword,
  takeOldLockPlace,
  unfinishedProceduresOf,
} from './replacement.repository.ts';
import {
  applyOutcome,
  canProceed,
  canStart,
  initialState,
  nextStep,
  type ReplacementState,
  type StepOutcome,
} from './replacement-machine.ts';

/** Starts run one at a time, so two of them cannot take the same device into two procedures. */
const START_LOCK = 'devices.replacement-start';
const procedureLock = (id: string) => `devices.replacement:${id}`;

/**
 * Reasons a step gives that are not result codes (the console translates them):
 * - `noOldPassword`: the old lock has no permanent password to send to the replacement;
 * - `awaitingCommandService`: the password is stored for the replacement but sending it to the lock is a
 *   device command, which waits for the command service.
 */
export const STEP_REASONS = {
  noOldPassword: 'noOldPassword',
  awaitingCommandService: 'awaitingCommandService',
} as const;

const DONE: StepOutcome = { kind: 'done' };

type StepRunner = (db: Db, procedure: StoredReplacement, staffName: string | null) => Promise<StepOutcome>;

const STEP_RUNNERS: Record<ReplacementStep, StepRunner> = {
  async Replace(db, { deviceId, replacementId }) {
    // The devices may have been changed in the ledger since the start: check again before moving.
    const old = await findCandidate(db, deviceId);
    const replacement = await findCandidate(db, replacementId);
    if (!old?.regist) return { kind: 'failed', reason: 'ReplacementNotRegistered' };
    if (!replacement || replacement.regist || replacement.mainDeviceId !== null) {
      return { kind: 'failed', reason: 'ReplacementInvalid' };
    }
    await takeOldLockPlace(db, deviceId, replacementId);
    return DONE;
  },
  async InformationTo(db, { deviceId, replacementId }) {
    await moveInformation(db, deviceId, replacementId);
    return DONE;
  },
  async ReRegister(db, { replacementId }) {
    await markRegistered(db, replacementId);
    return DONE;
  },
  async CancelRegistration(db, { deviceId }) {
    await markUnregistered(db, deviceId);
    return DONE;
  },
  async SendOldPassword(db, { deviceId, replacementId }, staffName) {
    const password = await permanentPasswordOf(db, deviceId);
    if (password === null) return { kind: 'failed', reason: STEP_REASONS.noOldPassword };
    await setPermanentPassword(db, replacementId, password, staffName);
    // Sending it down to the lock is a device command: never done until the command service confirms it.
    return { kind: 'pending', reason: STEP_REASONS.awaitingCommandService };
  },
};

/** One-click lock replacement (spec §4): a resumable procedure whose progress is stored step by step. */
export class ReplacementService {
  constructor(private readonly db: Db) {}

  /** Creates the procedure with nothing executed; the console then proceeds. */
  async start(
    input: { deviceId: string; replacementId: string },
    staffName: string | null,
  ): Promise<ReplacementRow> {
    const id = await this.db.transaction(async (tx) => {
      await lockForTransaction(tx, START_LOCK);
      const old = await findCandidate(tx, input.deviceId);
      if (!old) throw new AppError(ResultCode.NotFound);
      const replacement = await findCandidate(tx, input.replacementId);
      const unfinished = await unfinishedProceduresOf(tx, [input.deviceId, input.replacementId]);
      const refusal = canStart(old, replacement, unfinished);
      if (refusal) throw new AppError(ResultCode[refusal]);
      return insertReplacement(tx, { ...input, ...initialState(), createdBy: staffName });
    });
    return this.row(id);
  }

  /**
   * Runs the steps one after another, each with its effect and the stored progress in one transaction,
   * until a step fails, waits for the device, or all are done; answers the stored procedure.
   */
  async proceed(id: string, staffName: string | null = null): Promise<ReplacementRow> {
    let first = true;
    for (;;) {
      const state = await this.db.transaction(async (tx) => {
        await lockForTransaction(tx, procedureLock(id));
        const procedure = await findStoredReplacement(tx, id);
        if (!procedure) throw new AppError(ResultCode.NotFound);
        if (!canProceed(procedure)) {
          // Another call may have finished it meanwhile; only the caller's own first step is refused.
          if (first) throw new AppError(ResultCode.ReplacementFinished);
          return procedure;
        }
        const step = nextStep(procedure)!;
        const outcome = await STEP_RUNNERS[step](tx, procedure, staffName);
        const next = applyOutcome(procedure, step, outcome, new Date().toISOString());
        await saveProgress(tx, id, next);
        return next;
      });
      first = false;
      if (!keepsRunning(state)) break;
    }
    return this.row(id);
  }

  latestForDevice(deviceId: string): Promise<ReplacementRow | null> {
    return latestReplacementRowOf(this.db, deviceId);
  }

  private async row(id: string): Promise<ReplacementRow> {
    const row = await findReplacementRow(this.db, id);
    if (!row) throw new AppError(ResultCode.NotFound);
    return row;
  }
}

/** Proceeding stops at a failed or pending step and once all are done. */
const keepsRunning = (state: ReplacementState) => state.status === 'Running';
