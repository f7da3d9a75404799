import type { AlarmNoticeRow, AlarmSeverity, NoticeState } from '@uiot/contracts';
import { ALARM_NOTICES_MAX } from '@uiot/contracts';
import { and, asc, desc, eq, inArray, lte, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { device } from '../devices/devices.schema.ts';
import {
  type AlarmNoticeRecord,
  alarmNotice,
  alarmNoticeAttempt,
  deviceAlarm,
  warnRuleRecipient,
} from './alarms.schema.ts';

/** Who a rule names as its recipients, by kind. */
export async function ruleRecipients(
  db: Db,
  ruleId: string,
): Promise<{ staffIds: string[]; roleIds: string[]; departmentIds: string[] }> {
  const rows = await db
    .select({ kind: warnRuleRecipient.kind, targetId: warnRuleRecipient.targetId })
    .from(warnRuleRecipient)
    .where(eq(warnRuleRecipient.ruleId, ruleId));
  const of = (kind: string) => rows.filter((r) => r.kind === kind).map((r) => r.targetId);
  return { staffIds: of('staff'), roleIds: of('role'), departmentIds: of('department') };
}

export type NewNotice = typeof alarmNotice.$inferInsert;

export async function insertNotices(db: Db, notices: readonly NewNotice[]): Promise<void> {
  if (notices.length > 0) await db.insert(alarmNotice).values([...notices]);
}

/** A notification due for delivery, with what its webhook placeholders name of the alarm. */
export interface DueNotice extends AlarmNoticeRecord {
  severity: AlarmSeverity;
  warnTime: Date;
  deviceName: string;
}

/**
 * Takes the pending notifications whose time has come: each is moved to `leaseUntil` in the same statement
 * (rows claimed FOR UPDATE SKIP LOCKED), so no other pass or instance takes it while it is being delivered,
 * and one whose delivery was cut short (the process stopped) is tried again once the lease is over.
 */
export async function claimDueNotices(
  db: Db,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<DueNotice[]> {
  const due = db
    .select({ id: alarmNotice.id })
    .from(alarmNotice)
    .where(and(eq(alarmNotice.state, 'pending'), lte(alarmNotice.nextAttemptAt, now)))
    .orderBy(asc(alarmNotice.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(alarmNotice)
    .set({ nextAttemptAt: leaseUntil })
    .where(inArray(alarmNotice.id, due))
    .returning();
  if (claimed.length === 0) return [];
  const alarms = await db
    .select({
      id: deviceAlarm.id,
      severity: deviceAlarm.severity,
      warnTime: deviceAlarm.warnTime,
      deviceName: device.name,
    })
    .from(deviceAlarm)
    .innerJoin(device, eq(device.id, deviceAlarm.deviceId))
    .where(inArray(deviceAlarm.id, [...new Set(claimed.map((n) => n.alarmId))]));
  const byId = new Map(alarms.map((a) => [a.id, a]));
  return claimed.flatMap((notice) => {
    const alarm = byId.get(notice.alarmId);
    return alarm
      ? [{ ...notice, severity: alarm.severity, warnTime: alarm.warnTime, deviceName: alarm.deviceName }]
      : [];
  });
}

/**
 * Logs an attempt and what follows it, in one transaction. A delivery counts on its alarm's `sendCount`
 * when it is the first of its occasion (the notifications one raising or reminder wrote, together: one
 * transaction, one `created_at`): the recipients were told once more. Resolves with whether it counted.
 */
export async function recordAttempt(
  db: Db,
  notice: { id: string; attempt: number; alarmId: string },
  outcome: { at: Date; ok: boolean; detail: string; state: NoticeState; nextAttemptAt: Date | null },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Deliveries of one occasion are recorded one after another (the alarm's row lock), so that the second
    // sees the first.
    if (outcome.ok)
      await tx
        .select({ id: deviceAlarm.id })
        .from(deviceAlarm)
        .where(eq(deviceAlarm.id, notice.alarmId))
        .for('update');
    await tx.insert(alarmNoticeAttempt).values({
      noticeId: notice.id,
      attempt: notice.attempt,
      at: outcome.at,
      ok: outcome.ok,
      detail: outcome.detail,
    });
    await tx
      .update(alarmNotice)
      .set({
        state: outcome.state,
        attempts: notice.attempt,
        nextAttemptAt: outcome.nextAttemptAt ?? outcome.at,
        lastError: outcome.ok ? null : outcome.detail,
        ...(outcome.ok ? { sentAt: outcome.at } : {}),
      })
      .where(eq(alarmNotice.id, notice.id));
    if (!outcome.ok) return false;
    // Compared in the database: created_at has microseconds, a JavaScript Date only milliseconds.
    const createdWith = tx
      .select({ createdAt: alarmNotice.createdAt })
      .from(alarmNotice)
      .where(eq(alarmNotice.id, notice.id));
    const [toldBefore] = await tx
      .select({ id: alarmNotice.id })
      .from(alarmNotice)
      .where(
        and(
          eq(alarmNotice.alarmId, notice.alarmId),
          sql`${alarmNotice.createdAt} = (${createdWith})`,
          eq(alarmNotice.state, 'sent'),
          ne(alarmNotice.id, notice.id),
        ),
      )
      .limit(1);
    if (toldBefore) return false;
    await tx
      .update(deviceAlarm)
      .set({ sendCount: sql`${deviceAlarm.sendCount} + 1` })
      .where(eq(deviceAlarm.id, notice.alarmId));
    return true;
  });
}

/** The notifications of an alarm, newest first, each with its attempts in order. */
export async function noticesOf(db: Db, alarmId: string): Promise<AlarmNoticeRow[]> {
  const notices = await db
    .select()
    .from(alarmNotice)
    .where(eq(alarmNotice.alarmId, alarmId))
    .orderBy(
      desc(alarmNotice.createdAt),
      asc(alarmNotice.channel),
      asc(alarmNotice.staffName),
      asc(alarmNotice.id),
    )
    .limit(ALARM_NOTICES_MAX);
  if (notices.length === 0) return [];
  const attempts = await db
    .select()
    .from(alarmNoticeAttempt)
    .where(
      inArray(
        alarmNoticeAttempt.noticeId,
        notices.map((n) => n.id),
      ),
    )
    .orderBy(asc(alarmNoticeAttempt.noticeId), asc(alarmNoticeAttempt.attempt));
  return notices.map((n) => ({
    id: n.id,
    occasion: n.occasion,
    channel: n.channel,
    staffName: n.staffName,
    address: n.address,
    state: n.state,
    createdAt: n.createdAt.toISOString(),
    sentAt: n.sentAt?.toISOString() ?? null,
    nextAttemptAt: n.state === 'pending' ? n.nextAttemptAt.toISOString() : null,
    attempts: attempts
      .filter((a) => a.noticeId === n.id)
      .map((a) => ({ attempt: a.attempt, at: a.at.toISOString(), ok: a.ok, detail: a.detail })),
  }));
}
