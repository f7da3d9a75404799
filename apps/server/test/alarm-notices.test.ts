import { createHmac } from 'node:crypto';
import { type AlarmChange, api, ResultCode, type WarnRuleForm } from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarmNotice } from '../src/modules/alarms/alarms.schema.ts';
import { staff } from '../src/modules/org/org.schema.ts';
import { alarmHelpers, seconds } from './support/alarms.ts';
import { createTestApp, openTestApp, type TestApp, uniqueName } from './support/app.ts';
import { databases } from './support/databases.ts';
import { expectCode, expectOk, orgHelpers } from './support/org.ts';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';
import { startWebhookSink, type WebhookSink } from './support/webhook-sink.ts';

const SMS_SECRET = 'sms-gateway-secret-2026';

/**
 * Alarm notifications end to end (docs/alarms.md, "Notifications"): a real SMTP conversation with a local
 * sink, real HTTP calls to a local webhook, attempts logged and retried on the alarm clock the test moves.
 */
describe.each(databases)('alarm notifications ($kind)', (kind) => {
  let t: TestApp;
  let clock = Date.now();
  let mail: SmtpSink;
  let hooks: WebhookSink;
  const { get, createRole, createDepartment, assignRoles } = orgHelpers(() => t);
  const { newLock, report, createRule, alarmsOf, fire } = alarmHelpers(
    () => t,
    () => clock,
  );

  beforeAll(async () => {
    [mail, hooks] = await Promise.all([startSmtpSink(), startWebhookSink()]);
    t = await openTestApp(kind, {
      smtpUrl: mail.url,
      noticeWebhooks: {
        sms: {
          url: `${hooks.url}/sms`,
          secret: SMS_SECRET,
          bodyTemplate: '{"to":"{phone}","text":"{message}"}',
        },
        push: {
          url: `${hooks.url}/push`,
          secret: undefined,
          bodyTemplate:
            '{"user":"{staffId}","title":"{subject}","severity":"{severity}","device":"{device}"}',
        },
      },
      services: { alarmClock: () => clock },
    });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([mail?.close(), hooks?.close()]);
  });

  /** A staff member with an e-mail address and a phone number. */
  const contact = async (extra: { deptId?: string; status?: string } = {}) => {
    const member = await t.createStaff(extra.status ? { status: extra.status } : {});
    const email = `${member.name.toLowerCase()}@example.com`;
    const telNo = `138${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    await t.db
      .update(staff)
      .set({ email, telNo, deptId: extra.deptId ?? null })
      .where(eq(staff.id, member.id));
    return { ...member, email, telNo };
  };
  const deliver = () => t.services.alarms.notifier.deliverDue();
  /** The changes of an alarm the console is told of from now on. */
  const changesOf = (alarmId: string) => {
    const heard: AlarmChange[] = [];
    t.services.events.subscribe('alarm.changed', 'test', ({ alarms }) => {
      for (const { change } of alarms) if (change.id === alarmId) heard.push(change);
    });
    return heard;
  };
  const noticesOf = async (alarmId: string) => {
    const response = await get(api.deviceAlarm.notices, { id: alarmId });
    expectOk(response);
    return response.body.data;
  };
  const doorLeftOpen = (extra: Partial<WarnRuleForm>): Partial<WarnRuleForm> => ({
    ruleType: 'Delay',
    delayInterval: 120,
    resend: true,
    resendInterval: 600,
    severity: 'critical',
    formatMsg: '{device} door left open',
    ...extra,
  });
  /** At once, once: no delay, no reminder. */
  const instant = { ruleType: 'Instant', delayInterval: null, resend: false, resendInterval: null } as const;

  it('mails and calls the webhooks of every recipient once the delay is over, reminds, and stops when the door closes', async () => {
    const named = await contact();
    const roleId = await createRole(uniqueName('duty'));
    const holder = await contact();
    expectOk(await assignRoles(holder.id, [roleId]));
    const top = await createDepartment(uniqueName('line'));
    const sub = await createDepartment(uniqueName('depot'), top);
    const member = await contact({ deptId: sub });
    const disabled = await contact({ deptId: top, status: 'disabled' });
    const lock = await newLock();
    await createRule(
      lock.typeId,
      doorLeftOpen({
        emailNotice: true,
        smsNotice: true,
        msgNotice: true,
        recipients: [
          { kind: 'staff', id: named.id },
          { kind: 'role', id: roleId },
          { kind: 'department', id: top },
          // Named twice (directly and through the role): told once.
          { kind: 'staff', id: holder.id },
        ],
      }),
    );
    const start = clock;
    await report(lock, { door: 'open' });
    clock = start + seconds(119);
    await fire();
    await deliver();
    expect(await alarmsOf(lock.id)).toEqual([]);

    clock = start + seconds(120);
    await fire();
    const [alarm] = await alarmsOf(lock.id);
    // Counted once sent, not when written.
    expect(alarm).toMatchObject({ state: 'Warn', sendCount: 0 });
    const published = changesOf(alarm!.id);
    expect(await deliver()).toBe(9);
    // Nine notifications of one occasion: the recipients were told once; the console hears of it.
    expect(await alarmsOf(lock.id)).toMatchObject([{ sendCount: 1 }]);
    expect(published.map((c) => c.sendCount)).toEqual([1]);

    const told = [named, holder, member];
    for (const who of told) {
      const received = await mail.mailTo(who.email);
      expect(received.subject).toContain('紧急告警');
      expect(received.text).toContain('door left open');
    }
    expect(mail.mails.some((m) => m.to.includes(disabled.email))).toBe(false);

    const sms = await hooks.requestsTo('/sms', 3);
    expect(sms.map((r) => JSON.parse(r.body).to).sort()).toEqual(told.map((w) => w.telNo).sort());
    for (const request of sms) {
      const timestamp = String(request.headers['x-uiot-timestamp']);
      const signature = createHmac('sha256', SMS_SECRET).update(`${timestamp}.${request.body}`).digest('hex');
      expect(request.headers['x-uiot-signature']).toBe(`sha256=${signature}`);
      expect(JSON.parse(request.body).text).toContain('door left open');
    }
    const push = await hooks.requestsTo('/push', 3);
    expect(push.map((r) => JSON.parse(r.body).user).sort()).toEqual(told.map((w) => w.id).sort());
    expect(JSON.parse(push[0]!.body)).toMatchObject({ severity: 'critical' });
    expect(push[0]!.headers['x-uiot-signature']).toBeUndefined();

    const notices = await noticesOf(alarm!.id);
    expect(notices).toHaveLength(9);
    expect(notices.every((n) => n.state === 'sent' && n.occasion === 'raised')).toBe(true);
    expect(notices.every((n) => n.attempts.length === 1 && n.attempts[0]!.ok)).toBe(true);
    expect(notices.filter((n) => n.channel === 'sms').map((n) => n.attempts[0]!.detail)).toEqual([
      'HTTP 200',
      'HTTP 200',
      'HTTP 200',
    ]);

    // Nothing is due: a second pass sends nothing again.
    expect(await deliver()).toBe(0);

    // The reminder, ten minutes on.
    clock = start + seconds(720);
    await fire();
    expect(await alarmsOf(lock.id)).toMatchObject([{ state: 'Warn', sendCount: 1 }]);
    expect(await deliver()).toBe(9);
    expect(await alarmsOf(lock.id)).toMatchObject([{ state: 'Warn', sendCount: 2 }]);
    const reminder = await mail.mailTo(named.email, 1);
    expect(reminder.subject).toContain('告警提醒');
    expect(reminder.subject).toContain('第 2 次');

    // The door closes: Normal, and no reminder after.
    clock = start + seconds(800);
    await report(lock, { door: 'closed' });
    expect(await alarmsOf(lock.id)).toMatchObject([{ state: 'Normal' }]);
    clock = start + seconds(2000);
    await fire();
    expect(await deliver()).toBe(0);
    expect(await noticesOf(alarm!.id)).toHaveLength(18);
  });

  it('retries a failed webhook call with backoff, logging each attempt, until it is delivered', async () => {
    const who = await contact();
    const lock = await newLock();
    await createRule(
      lock.typeId,
      doorLeftOpen({
        ruleType: 'Instant',
        resend: false,
        smsNotice: true,
        recipients: [{ kind: 'staff', id: who.id }],
      }),
    );
    hooks.failNext(2, 503);
    const start = clock;
    await report(lock, { door: 'open' });
    const [alarm] = await alarmsOf(lock.id);
    expect(await deliver()).toBe(1);
    let [notice] = await noticesOf(alarm!.id);
    expect(notice).toMatchObject({
      channel: 'sms',
      state: 'pending',
      attempts: [{ attempt: 1, ok: false, detail: 'HTTP 503' }],
    });
    // Not delivered yet: nobody was told.
    expect(await alarmsOf(lock.id)).toMatchObject([{ sendCount: 0 }]);
    expect(Date.parse(notice!.nextAttemptAt!)).toBe(start + seconds(10));

    clock = start + seconds(9);
    expect(await deliver()).toBe(0);
    clock = start + seconds(10);
    expect(await deliver()).toBe(1);
    [notice] = await noticesOf(alarm!.id);
    expect(notice!.attempts.map((a) => a.detail)).toEqual(['HTTP 503', 'HTTP 503']);
    expect(Date.parse(notice!.nextAttemptAt!)).toBe(start + seconds(40));

    clock = start + seconds(40);
    expect(await deliver()).toBe(1);
    [notice] = await noticesOf(alarm!.id);
    expect(notice).toMatchObject({ state: 'sent', nextAttemptAt: null });
    expect(await alarmsOf(lock.id)).toMatchObject([{ sendCount: 1 }]);
    expect(notice!.attempts.map((a) => [a.attempt, a.ok])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    const calls = hooks.received.filter((r) => r.body.includes(who.telNo));
    expect(calls.map((c) => c.status)).toEqual([503, 503, 200]);
  });

  it('sends nothing on a channel that is not configured, and says which are', async () => {
    const bare = await createTestApp(t.database, { services: { alarmClock: () => clock } });
    try {
      const channels = await bare.call(api.warnRule.noticeChannels, {
        token: await bare.signIn('admin', 'Admin-Test-2026'),
      });
      expect(channels.body.data).toEqual({ email: false, sms: false, push: false });
      expect((await get(api.warnRule.noticeChannels)).body.data).toEqual({
        email: true,
        sms: true,
        push: true,
      });

      const who = await contact();
      const lock = await newLock();
      await createRule(
        lock.typeId,
        doorLeftOpen({
          ...instant,
          emailNotice: true,
          smsNotice: true,
          msgNotice: true,
          recipients: [{ kind: 'staff', id: who.id }],
        }),
      );
      // The lock reports to the app without channels: its alarm writes no notification at all.
      const previous = t;
      t = bare;
      try {
        await report(lock, { door: 'open' });
      } finally {
        t = previous;
      }
      const [alarm] = await alarmsOf(lock.id);
      expect(alarm).toMatchObject({ state: 'Warn', sendCount: 0 });
      expect(await t.db.select().from(alarmNotice).where(eq(alarmNotice.alarmId, alarm!.id))).toEqual([]);
    } finally {
      await bare.closeApp();
    }
  });

  it('answers 404 for the notifications of an alarm that does not exist', async () => {
    expectCode(await get(api.deviceAlarm.notices, { id: 'no-such-alarm' }), ResultCode.NotFound);
  });
});
