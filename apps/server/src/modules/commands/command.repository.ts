import type { CommandState } from '@uiot/contracts';
import type { CommandOutcome } from '@uiot/device-protocol';
import { and, asc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { maskedParams } from './command-secrets.ts';
import { lockSequenceOf } from './command-send.ts';
import { afterOutcome, isFinal, mayRetransmit } from './command-state.ts';
import { type DeviceCommandRecord, deviceCommand } from './commands.schema.ts';

export type CommandPatch = Partial<
  Pick<
    DeviceCommandRecord,
    | 'attempts'
    | 'sendFlag'
    | 'sendTime'
    | 'lastSentAt'
    | 'transport'
    | 'receiveId'
    | 'platformDeviceId'
    | 'state'
    | 'detail'
    | 'failureCode'
    | 'failureParams'
    | 'nextCheckAt'
    | 'finishedAt'
  >
>;

export async function insertCommand(
  db: Db,
  values: typeof deviceCommand.$inferInsert,
): Promise<DeviceCommandRecord> {
  const [row] = await db.insert(deviceCommand).values(values).returning();
  return row as DeviceCommandRecord;
}

/** One command, locked for the rest of the transaction. */
export async function lockCommand(tx: Db, id: string): Promise<DeviceCommandRecord | null> {
  const [row] = await tx.select().from(deviceCommand).where(eq(deviceCommand.id, id)).for('update');
  return row ?? null;
}

/**
 * Commands whose timer has run out, oldest first, locked; those another server instance holds are
 * skipped (it is handling them).
 */
export function lockDueCommands(tx: Db, now: Date, limit: number): Promise<DeviceCommandRecord[]> {
  return tx
    .select()
    .from(deviceCommand)
    .where(and(isNotNull(deviceCommand.nextCheckAt), lte(deviceCommand.nextCheckAt, now)))
    .orderBy(asc(deviceCommand.nextCheckAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/**
 * Changes a command. A command that ends here (`finishedAt` set) keeps no secret among its parameters: the
 * lock has it or will never be sent it again by this command (command-secrets.ts).
 */
export async function updateCommand(tx: Db, id: string, patch: CommandPatch): Promise<DeviceCommandRecord> {
  const [row] = await tx
    .update(deviceCommand)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(deviceCommand.id, id))
    .returning();
  const command = row as DeviceCommandRecord;
  const masked = patch.finishedAt ? maskedParams(command.cmdCode, command.params) : null;
  if (!masked) return command;
  const [scrubbed] = await tx
    .update(deviceCommand)
    .set({ params: masked })
    .where(eq(deviceCommand.id, id))
    .returning();
  return scrubbed as DeviceCommandRecord;
}

/** An answer about a command, as ingest read it: from the lock, ChirpStack or an NB-IoT platform. */
export interface CommandAnswer {
  deviceId: string;
  /** The command id, ChirpStack queue item id, or `seq:{n}` of the lock's binary payload. */
  commandId: string;
  outcome: CommandOutcome;
  detail?: string | undefined;
  at: Date;
}

/**
 * Applies answers to the open commands they name (in the ingest transaction that stores them). Answers
 * naming no open command of that device (a late one, another server's) change nothing. Returns the
 * commands whose state changed.
 */
export async function applyCommandAnswers(
  tx: Db,
  answers: readonly CommandAnswer[],
): Promise<DeviceCommandRecord[]> {
  if (answers.length === 0) return [];
  const devices = [...new Set(answers.map((a) => a.deviceId))];
  // The open commands of those devices (a handful each), matched below: an answer may name a command by its
  // sequence before the send that computed it has been recorded.
  const open = await tx
    .select()
    .from(deviceCommand)
    .where(and(inArray(deviceCommand.deviceId, devices), isNotNull(deviceCommand.nextCheckAt)))
    .orderBy(asc(deviceCommand.id))
    .for('update');
  const changed: DeviceCommandRecord[] = [];
  for (const command of open) {
    let state = command.state as CommandState;
    let detail = command.detail;
    let at: Date | null = null;
    const names = new Set([command.id, `seq:${lockSequenceOf(command.id)}`]);
    if (command.receiveId) names.add(command.receiveId);
    for (const answer of answers) {
      if (answer.deviceId !== command.deviceId || !names.has(answer.commandId)) continue;
      const next = afterOutcome(state, answer.outcome);
      if (next === state) continue;
      state = next;
      detail = answer.detail ?? detail;
      at = answer.at;
    }
    if (at === null) continue;
    const final = isFinal(state);
    changed.push(
      await updateCommand(tx, command.id, {
        state,
        detail,
        finishedAt: final ? at : null,
        // Final: no timer. Delivered somewhere: nothing to send again, only the expiry to watch.
        nextCheckAt: final ? null : mayRetransmit(state) ? command.nextCheckAt : command.expireTime,
      }),
    );
  }
  return changed;
}

/** A command's id and state in the caller's transaction (a lock replacement follows its password command). */
export async function commandStateOf(
  db: Db,
  id: string,
): Promise<{ id: string; state: CommandState } | null> {
  const [row] = await db
    .select({ id: deviceCommand.id, state: deviceCommand.state })
    .from(deviceCommand)
    .where(eq(deviceCommand.id, id));
  return row ? { id: row.id, state: row.state as CommandState } : null;
}
