import { type CommandState, ResultCode } from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import { EventBus } from '../../infra/events/event-bus.ts';
import type { ModuleLogger } from '../../lib/module-logger.ts';
import { startPeriodicJobs } from '../../lib/periodic-jobs.ts';
import {
  commandStateOf,
  insertCommand,
  lockCommand,
  lockDueCommands,
  updateCommand,
} from './command.repository.ts';
import type { CommandSend, SentCommand } from './command-send.ts';
import { afterOutcome, type CommandTiming, isFinal, nextStep } from './command-state.ts';
import type { DeviceCommandRecord } from './commands.schema.ts';
import './events.ts';

/** How long a send may go unanswered before the command is sent again (default). */
const DEFAULT_RETRANSMIT_SECONDS = 30;
/** A command being sent is not looked at again for this long: the sender's claim on it. */
const SEND_CLAIM_MS = 60_000;
/** Commands handled per scheduler round. */
const ROUND_LIMIT = 200;

/**
 * Send failures that retrying cannot mend: the command ends `Failure` with the reason. Any other (the
 * device not connected, the broker away) counts as an attempt and waits for the next.
 */
const HOPELESS = new Set<number>([
  ResultCode.NotFound,
  ResultCode.DeviceNotRegistered,
  ResultCode.CommandUnsupported,
  ResultCode.DeviceWithoutCode,
]);

export interface CommandServiceOptions {
  db: Db;
  /** How commands leave; attached later (`attachSender`) when the device bus starts after the service. */
  sender?: CommandSend;
  logger: ModuleLogger;
  /** Where `command.changed` is published. */
  events?: EventBus;
  retransmitSeconds?: number;
  now?: () => number;
}

export interface IssueCommand {
  deviceId: string;
  cmdCode: string;
  name: string;
  params?: Record<string, string | number | boolean> | undefined;
  /** Seconds from now after which the lock must not act on it. */
  expireSeconds: number;
  maxRetransmit: number;
  staff?: { id: string; name: string } | undefined;
}

/** A device command as a change left it; `finished` when that change gave it its final state. */
export interface CommandUpdate {
  command: DeviceCommandRecord;
  finished: boolean;
}

function timingOf(command: DeviceCommandRecord): CommandTiming {
  return {
    state: command.state as CommandState,
    attempts: command.attempts,
    maxRetransmit: command.maxRetransmit,
    lastSentAt: command.lastSentAt?.getTime() ?? null,
    expireAt: command.expireTime.getTime(),
  };
}

/**
 * Device commands (spec §3, §4): issues them, sends them down through `DeviceCommandSender`, sends them
 * again while unanswered, and ends them on expiry or when retries ran out. Every timer is a column
 * (`next_check_at`), so a restarted server resumes a retransmit cycle where it stopped, and several
 * instances share the work (rows are claimed with `skip locked`). Answers arrive through ingest
 * (`applyCommandAnswers`). No transaction is held while a command goes out.
 */
export class CommandService {
  private readonly db: Db;
  private readonly retransmitMs: number;
  private readonly now: () => number;
  private sender: CommandSend | null;
  private readonly events: EventBus;

  constructor(private readonly options: CommandServiceOptions) {
    this.db = options.db;
    this.sender = options.sender ?? null;
    this.events = options.events ?? new EventBus(options.logger);
    this.retransmitMs = (options.retransmitSeconds ?? DEFAULT_RETRANSMIT_SECONDS) * 1000;
    this.now = options.now ?? Date.now;
  }

  /** Connects the service to the device bus: until then every send counts as an attempt that could not leave. */
  attachSender(sender: CommandSend): void {
    this.sender = sender;
  }

  /** Announces commands that answers moved on (ingest, after its commit). */
  answered(commands: readonly DeviceCommandRecord[]): void {
    this.announce(commands.map((command) => ({ command, finished: isFinal(command.state as CommandState) })));
  }

  /**
   * Publishes `command.changed` with every change of a command's delivery state (issued, each send,
   * answers, expiry, timeout), once it is committed.
   */
  private announce(updates: CommandUpdate[]): void {
    if (updates.length === 0) return;
    this.events.publish('command.changed', updates);
  }

  /** A command's id and state, read in the caller's transaction. */
  stateOf(tx: Db, id: string): Promise<{ id: string; state: CommandState } | null> {
    return commandStateOf(tx, id);
  }

  /** Stores a new command and sends it at once; answers it as it stands after that first send. */
  async issue(input: IssueCommand): Promise<DeviceCommandRecord> {
    const now = this.now();
    const created = await insertCommand(this.db, {
      deviceId: input.deviceId,
      cmdCode: input.cmdCode,
      name: input.name,
      params: input.params ?? null,
      expireTime: new Date(now + input.expireSeconds * 1000),
      maxRetransmit: input.maxRetransmit,
      staffId: input.staff?.id ?? null,
      staffName: input.staff?.name ?? null,
      nextCheckAt: new Date(now + SEND_CLAIM_MS),
    });
    this.announce([{ command: created, finished: false }]);
    return this.send(created);
  }

  /**
   * One scheduler round: every command whose timer ran out is sent again, ended, or given its next timer.
   * Returns how many were looked at.
   */
  async runDue(): Promise<number> {
    const now = this.now();
    const toSend: DeviceCommandRecord[] = [];
    const ended: CommandUpdate[] = [];
    const looked = await this.db.transaction(async (tx) => {
      const due = await lockDueCommands(tx, new Date(now), ROUND_LIMIT);
      for (const command of due) {
        const step = nextStep(timingOf(command), now, this.retransmitMs);
        switch (step.do) {
          case 'send':
            toSend.push(await updateCommand(tx, command.id, { nextCheckAt: new Date(now + SEND_CLAIM_MS) }));
            break;
          case 'wait':
            await updateCommand(tx, command.id, { nextCheckAt: new Date(step.until) });
            break;
          case 'end': {
            const finished = await updateCommand(tx, command.id, {
              state: step.state,
              nextCheckAt: null,
              finishedAt: new Date(now),
            });
            ended.push({ command: finished, finished: true });
            break;
          }
          case 'nothing':
            await updateCommand(tx, command.id, { nextCheckAt: null });
            break;
        }
      }
      return due.length;
    });
    this.announce(ended);
    for (const command of toSend) await this.send(command);
    return looked;
  }

  /** Sends a claimed command once and records the attempt; its next timer follows from the state machine. */
  private async send(command: DeviceCommandRecord): Promise<DeviceCommandRecord> {
    let sent: SentCommand | null = null;
    let failure: AppError | null = null;
    try {
      if (!this.sender) throw new AppError(ResultCode.ServiceUnavailable);
      sent = await this.sender.send(command.deviceId, {
        id: command.id,
        cmd: command.cmdCode,
        ...(command.params ? { params: command.params } : {}),
        expireAt: command.expireTime.getTime(),
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      failure = error;
    }
    const now = this.now();
    const update = await this.db.transaction(async (tx): Promise<CommandUpdate> => {
      const current = await lockCommand(tx, command.id);
      if (!current) throw new AppError(ResultCode.NotFound);
      const attempt = {
        attempts: current.attempts + 1,
        lastSentAt: new Date(now),
        failureCode: failure ? failure.code : null,
        failureParams: failure && Object.keys(failure.params).length > 0 ? failure.params : null,
        ...(sent
          ? {
              sendFlag: true,
              sendTime: current.sendTime ?? new Date(now),
              transport: sent.transport,
              receiveId: sent.receiveId,
              ...(sent.platformDeviceId ? { platformDeviceId: sent.platformDeviceId } : {}),
            }
          : {}),
      };
      // An answer may have ended it while it was on its way.
      if (isFinal(current.state as CommandState)) {
        return { command: await updateCommand(tx, current.id, attempt), finished: false };
      }
      if (failure && HOPELESS.has(failure.code)) {
        this.options.logger.warn(
          { command: current.id, device: current.deviceId, code: failure.code },
          'a device command cannot be sent; it ends as failed',
        );
        const failed = await updateCommand(tx, current.id, {
          ...attempt,
          state: 'Failure',
          nextCheckAt: null,
          finishedAt: new Date(now),
        });
        return { command: failed, finished: true };
      }
      // A network that holds the command delivers it: it is pending there, not to be sent again.
      const state = sent?.held
        ? afterOutcome(current.state as CommandState, 'NB_Pending')
        : (current.state as CommandState);
      const step = nextStep(
        { ...timingOf(current), state, attempts: attempt.attempts, lastSentAt: now },
        now,
        this.retransmitMs,
      );
      const nextCheckAt = step.do === 'wait' ? new Date(step.until) : new Date(now);
      const patch = { ...attempt, nextCheckAt, ...(state !== current.state ? { state } : {}) };
      return { command: await updateCommand(tx, current.id, patch), finished: false };
    });
    this.announce([update]);
    return update.command;
  }
}

/** Runs the command scheduler every `intervalMs` (default 1 s); returns the function that stops it. */
export function startCommandScheduler(
  service: CommandService,
  logger: ModuleLogger,
  intervalMs = 1000,
): () => Promise<void> {
  return startPeriodicJobs(
    [{ name: 'deviceCommands', intervalMs, run: () => service.runDue() }],
    logger,
    'device command round failed; retrying at the next',
  );
}
