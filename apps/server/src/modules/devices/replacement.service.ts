import {
  type CommandState,
  type DeviceCredential,
  isIotDevice,
  type ProceededReplacement,
  type ReplacementRow,
  type ReplacementStep,
  ResultCode,
  resultCodeName,
  SYSTEM_COMMAND_NAMES,
} from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { lockForTransaction } from '../../db/locks.ts';
import { AppError } from '../../http/app-error.ts';
import { featureDisabled } from '../../http/feature-gate.ts';
import type { ParamService } from '../params/index.ts';
import type { CredentialIssuer as DeviceCredentials } from './credential-issuer.ts';
import { deviceState } from './device.repository.ts';
import { registerWithCredential, unregisterWithCredential } from './device.service.ts';
import { requireOperable } from './device-operation.guard.ts';
import type { DeviceOperator } from './device-operation.ts';
import {
  findCandidate,
  findReplacementRow,
  findStoredReplacement,
  insertReplacement,
  latestReplacementRowOf,
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
  holdsClaim,
  initialState,
  nextStep,
  PASSWORD_CLAIM,
  PASSWORD_STEP_REASONS,
  passwordOutcome,
  passwordStepAction,
  type ReplacementState,
  type StepOutcome,
} from './replacement-machine.ts';

/** Starts run one at a time, so two of them cannot take the same device into two procedures. */
const START_LOCK = 'devices.replacement-start';
const procedureLock = (id: string) => `devices.replacement:${id}`;

/**
 * The `setPassword` command that sends the old lock's permanent password to the replacement (spec §4
 * "fetch and send down the old permanent password"). A replacement is usually being fitted while the
 * operator waits, so the lock may take a while to come online: the command is sent again every retransmit
 * interval up to 5 more times while nobody confirms it, and the lock must not act on it after 30 minutes.
 * The password is a secret: it travels only in the command's params to the lock, never in a log, a step
 * reason or the records page (which masks it).
 */
export const PASSWORD_COMMAND = {
  cmdCode: 'setPassword',
  name: SYSTEM_COMMAND_NAMES.setPassword,
  expireSeconds: 30 * 60,
  maxRetransmit: 5,
} as const;

const DONE: StepOutcome = { kind: 'done' };

/** Who proceeds: the staff member the command is recorded against. */
export interface ReplacementActor {
  id: string;
  name: string;
}

/**
 * What proceeding needs besides the database: who proceeds (the staff member the records name, and whose
 * DevTypeOp grants allow operating both devices), how device commands are issued, and the device
 * credentials that registering and unregistering issue and withdraw.
 */
export interface ProceedContext {
  staff: ReplacementActor;
  operator: DeviceOperator;
  commands: ReplacementCommands;
  credentials: DeviceCredentials;
}

/** What the procedure needs of device commands: the commands module's service. */
export interface ReplacementCommands {
  issue(input: {
    deviceId: string;
    cmdCode: string;
    name: string;
    params: Record<string, string>;
    expireSeconds: number;
    maxRetransmit: number;
    staff: ReplacementActor;
  }): Promise<{ id: string; state: string }>;
  /** The state of a command, read in the procedure's transaction; null once it is gone. */
  stateOf(tx: Db, id: string): Promise<{ id: string; state: CommandState } | null>;
}

/**
 * What a ledger step gave: its outcome and, from ReRegister, the replacement's credential (answered once,
 * never stored); `announce` tells the broker and TcpDirect of the credential change once committed.
 */
interface StepRun {
  outcome: StepOutcome;
  credential?: DeviceCredential | null;
  announce?: () => void;
}

type StepRunner = (tx: Db, procedure: StoredReplacement, credentials: DeviceCredentials) => Promise<StepRun>;

/**
 * The steps that change the ledger (and the devices' credentials with their registrations); SendOldPassword
 * is a device command (see `passwordTurn`).
 */
const LEDGER_STEPS: Record<Exclude<ReplacementStep, 'SendOldPassword'>, StepRunner> = {
  async Replace(db, { deviceId, replacementId }) {
    // The devices may have been changed in the ledger since the start: check again before moving.
    const old = await findCandidate(db, deviceId);
    const replacement = await findCandidate(db, replacementId);
    if (!old?.regist) return { outcome: { kind: 'failed', reason: 'ReplacementNotRegistered' } };
    if (!replacement || replacement.regist || replacement.mainDeviceId !== null) {
      return { outcome: { kind: 'failed', reason: 'ReplacementInvalid' } };
    }
    await takeOldLockPlace(db, deviceId, replacementId);
    return { outcome: DONE };
  },
  async InformationTo(db, { deviceId, replacementId }) {
    await moveInformation(db, deviceId, replacementId);
    return { outcome: DONE };
  },
  // Registered in the old lock's place (Replace ran first), so the credential names the right station.
  async ReRegister(db, { replacementId }, credentials) {
    const { credential, announce } = await registerWithCredential(db, credentials, replacementId);
    return { outcome: DONE, credential, announce };
  },
  async CancelRegistration(db, { deviceId }, credentials) {
    const announce = await unregisterWithCredential(db, credentials, deviceId);
    return { outcome: DONE, announce };
  },
};

/**
 * A turn of `proceed`: the state it stored, the password to send when it claimed the step for it, and what
 * a ledger step left for after the commit (see StepRun).
 */
interface Turn {
  state: ReplacementState;
  send?: { replacementId: string; password: string; claimedAt: string };
  credential?: DeviceCredential | null;
  announce?: () => void;
}

/** One-click lock replacement (spec §4): a resumable procedure whose progress is stored step by step. */
export class ReplacementService {
  constructor(
    private readonly db: Db,
    private readonly params: ParamService,
  ) {}

  /**
   * Creates the procedure with nothing executed; the console then proceeds. The operator must be allowed to
   * operate both devices (DevTypeOp), and an IoT replacement (which ReRegister registers) needs SupportIoT.
   */
  async start(
    input: { deviceId: string; replacementId: string },
    staffName: string | null,
    operator: DeviceOperator,
  ): Promise<ReplacementRow> {
    const iotManaged = await this.params.getBoolean('SupportIoT');
    const id = await this.db.transaction(async (tx) => {
      await lockForTransaction(tx, START_LOCK);
      const old = await findCandidate(tx, input.deviceId);
      if (!old) throw new AppError(ResultCode.NotFound);
      const replacement = await findCandidate(tx, input.replacementId);
      await requireOperable(tx, operator, [input.deviceId, input.replacementId]);
      const unfinished = await unfinishedProceduresOf(tx, [input.deviceId, input.replacementId]);
      const refusal = canStart(old, replacement, unfinished);
      if (refusal) throw new AppError(ResultCode[refusal]);
      const fitted = await deviceState(tx, input.replacementId);
      if (!iotManaged && fitted && isIotDevice(fitted)) throw featureDisabled('SupportIoT');
      return insertReplacement(tx, { ...input, ...initialState(), createdBy: staffName });
    });
    return this.row(id);
  }

  /**
   * Runs the steps one after another, each with its effect and the stored progress in one transaction,
   * until a step fails, waits for the device, or all are done; answers the stored procedure. The last step
   * sends the password as a device command after its transaction (see `passwordTurn`), and is done once
   * the replacement confirms it: until then it is pending, and proceeding again looks at the command.
   * The answer carries the replacement's credential when this call's ReRegister issued it: that is the
   * only time it is shown, so a later step's failure is then answered in the procedure (the failed step)
   * rather than as an error that would lose it.
   */
  async proceed(id: string, context: ProceedContext): Promise<ProceededReplacement> {
    const procedure = await findReplacementRow(this.db, id);
    if (!procedure) throw new AppError(ResultCode.NotFound);
    await requireOperable(this.db, context.operator, [procedure.deviceId, procedure.replacementId]);
    let first = true;
    let credential: DeviceCredential | null = null;
    try {
      for (;;) {
        const turn = await this.turn(id, first, context);
        first = false;
        if (turn.credential) credential = turn.credential;
        turn.announce?.();
        const state = turn.send ? await this.sendPassword(id, turn.send, context) : turn.state;
        if (!keepsRunning(state)) break;
      }
    } catch (error) {
      if (!credential) throw error;
    }
    return { ...(await this.row(id)), credential };
  }

  /** Runs the next step in its transaction, with the progress it made. */
  private turn(id: string, first: boolean, context: ProceedContext): Promise<Turn> {
    return this.db.transaction(async (tx): Promise<Turn> => {
      await lockForTransaction(tx, procedureLock(id));
      const procedure = await findStoredReplacement(tx, id);
      if (!procedure) throw new AppError(ResultCode.NotFound);
      if (!canProceed(procedure)) {
        // Another call may have finished it meanwhile; only the caller's own first step is refused.
        if (first) throw new AppError(ResultCode.ReplacementFinished);
        return { state: procedure };
      }
      const step = nextStep(procedure)!;
      if (step === 'SendOldPassword') return this.passwordTurn(tx, procedure, context);
      const { outcome, ...effects } = await LEDGER_STEPS[step](tx, procedure, context.credentials);
      return { state: await record(tx, procedure, step, outcome), ...effects };
    });
  }

  /**
   * The SendOldPassword step, in the procedure's transaction: follows the command it sent, or fetches the
   * old lock's permanent password, stores it for the replacement and claims the step for sending it.
   */
  private async passwordTurn(
    tx: Db,
    procedure: StoredReplacement,
    { staff, commands }: ProceedContext,
  ): Promise<Turn> {
    const staffName = staff.name;
    const step = procedure.steps.find((s) => s.step === 'SendOldPassword')!;
    const command = step.commandId ? await commands.stateOf(tx, step.commandId) : null;
    const now = new Date();
    const action = passwordStepAction(step, command, now.getTime());
    if (action.do === 'wait') return { state: procedure };
    if (action.do === 'record') {
      return { state: await record(tx, procedure, 'SendOldPassword', action.outcome, now) };
    }
    const password = await permanentPasswordOf(tx, procedure.deviceId);
    if (password === null) {
      const missing: StepOutcome = { kind: 'failed', reason: PASSWORD_STEP_REASONS.noOldPassword };
      return { state: await record(tx, procedure, 'SendOldPassword', missing, now) };
    }
    await setPermanentPassword(tx, procedure.replacementId, password, staffName);
    const claimed = await record(tx, procedure, 'SendOldPassword', PASSWORD_CLAIM, now);
    return {
      state: claimed,
      send: { replacementId: procedure.replacementId, password, claimedAt: now.toISOString() },
    };
  }

  /**
   * Issues the `setPassword` command to the replacement (no transaction held while it goes out), then
   * records what it stands for in the step, if the step is still under this call's claim.
   */
  private async sendPassword(
    id: string,
    send: NonNullable<Turn['send']>,
    { staff, commands }: ProceedContext,
  ): Promise<ReplacementState> {
    let outcome: StepOutcome;
    let failure: unknown = null;
    try {
      const issued = await commands.issue({
        deviceId: send.replacementId,
        cmdCode: PASSWORD_COMMAND.cmdCode,
        name: PASSWORD_COMMAND.name,
        params: { password: send.password },
        expireSeconds: PASSWORD_COMMAND.expireSeconds,
        maxRetransmit: PASSWORD_COMMAND.maxRetransmit,
        staff,
      });
      outcome = passwordOutcome({ id: issued.id, state: issued.state as CommandState });
    } catch (error) {
      // Release the claim at once rather than after it runs out, so a retry can send again.
      failure = error;
      const code = error instanceof AppError ? resultCodeName(error.code) : undefined;
      outcome = { kind: 'failed', reason: code ?? 'Internal' };
    }
    const state = await this.db.transaction(async (tx) => {
      await lockForTransaction(tx, procedureLock(id));
      const current = await findStoredReplacement(tx, id);
      if (!current) throw new AppError(ResultCode.NotFound);
      const step = current.steps.find((s) => s.step === 'SendOldPassword')!;
      // Past the claim's time another call may have sent a command of its own: then its outcome stands.
      if (!holdsClaim(step, send.claimedAt)) return current;
      return record(tx, current, 'SendOldPassword', outcome);
    });
    if (failure) throw failure;
    return state;
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

/** Stores the state after `step` ran with `outcome`; answers it. */
async function record(
  tx: Db,
  procedure: StoredReplacement,
  step: ReplacementStep,
  outcome: StepOutcome,
  at: Date = new Date(),
): Promise<ReplacementState> {
  const next = applyOutcome(procedure, step, outcome, at.toISOString());
  await saveProgress(tx, procedure.id, next);
  return next;
}

/** Proceeding stops at a failed or pending step and once all are done. */
const keepsRunning = (state: ReplacementState) => state.status === 'Running';
