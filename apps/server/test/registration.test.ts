import { api, Permission, ResultCode, VERIFICATION_RESEND_SECONDS } from '@uiot/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../src/lib/password-hash.ts';
import { freePort } from '../src/lib/test-support.ts';
import { opLog } from '../src/modules/admin/logs.schema.ts';
import { mailOutbox } from '../src/modules/mail/mail.schema.ts';
import { staff } from '../src/modules/org/org.schema.ts';
import { sysMessage, verificationCode } from '../src/modules/registration/registration.schema.ts';
import {
  createTestApp,
  eventually,
  freshAddress,
  openTestApp,
  type TestApp,
  uniqueName,
  urlOf,
} from './support/app.ts';
import { databases } from './support/databases.ts';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';

const REGISTRANT_PASSWORD = 'Rail-Works-58';
const CODE = /^[0-9A-Z]{6}$/;

describe.each(databases)('self-registration ($kind)', (kind) => {
  let t: TestApp;
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await openTestApp(kind, { smtpUrl: sink.url });
    await t.setParam('UserRegisterLorawan', 'true');
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  const uniqueEmail = () => `${uniqueName('reg')}@example.com`;

  const sendCode = (email: string, options: { ip?: string; lang?: string } = {}) =>
    t.call(api.registration.sendVerificationCode, {
      query: { email },
      lang: options.lang ?? 'en',
      remoteAddress: options.ip ?? freshAddress(),
    });

  const verify = async (email: string, verificationCode: string) => {
    const response = await t.call(api.registration.verifyVerificationCode, {
      query: { email, verificationCode },
    });
    expect(response.status).toBe(200);
    return response.body;
  };

  /** The code of the `index`-th mail to the address, read from the mail the SMTP server received. */
  const codeFromMail = async (email: string, index = 0) => {
    const mail = await sink.mailTo(email, index);
    const code = /[:：]\s*([0-9A-Z]{6})\s*$/m.exec(mail.text)?.[1];
    expect(code, mail.text).toMatch(CODE);
    return code!;
  };

  const register = (body: Record<string, unknown>, lang = 'en') =>
    t.call(api.registration.userRegister, { payload: body, lang, remoteAddress: freshAddress() });

  const formFor = (email: string, verificationCode: string, overrides: Record<string, unknown> = {}) => ({
    staffType: 1,
    name: uniqueName('Staff'),
    email,
    verificationCode,
    password: REGISTRANT_PASSWORD,
    confirmPassword: REGISTRANT_PASSWORD,
    ...overrides,
  });

  /** Sends a code, reads it from the mail and registers; resolves with the new account. */
  const registered = async (overrides: Record<string, unknown> = {}) => {
    const email = uniqueEmail();
    expect((await sendCode(email)).body.success).toBe(true);
    const form = formFor(email, await codeFromMail(email), overrides);
    const response = await register(form);
    expect(response.body).toMatchObject({ success: true, code: ResultCode.Ok });
    const [account] = await t.db
      .select()
      .from(staff)
      .where(eq(staff.name, form.name as string));
    const [message] = await t.db.select().from(sysMessage).where(eq(sysMessage.staffId, account!.id));
    return { form, account: account!, message: message! };
  };

  const reviewer = async () => {
    const user = await t.createStaff({
      permissions: [Permission.RegistrationRead, Permission.RegistrationReview, Permission.OutboxRead],
    });
    return { ...user, token: await t.signIn(user.name, user.password) };
  };

  const review = (token: string, body: { id: string; approve: boolean; remark?: string }, lang = 'en') =>
    t.call(api.registration.reviewRegistration, { token, body, lang });

  const loginCode = async (name: string, password: string) =>
    (
      await t.call(api.auth.loginCheck, {
        body: { name, pwd: password },
        remoteAddress: freshAddress(),
      })
    ).body.code;

  it('refuses every registration call with 1050 while UserRegisterLorawan is not "true"', async () => {
    const email = uniqueEmail();
    try {
      await t.setParam('UserRegisterLorawan', 'false');
      const send = await sendCode(email);
      const check = await t.call(api.registration.verifyVerificationCode, {
        query: { email, verificationCode: 'ABC123' },
        lang: 'en',
      });
      const submit = await register(formFor(email, 'ABC123'));
      for (const response of [send, check, submit]) {
        expect(response.status).toBe(200);
        expect(response.body).toEqual({
          success: false,
          code: ResultCode.RegistrationClosed,
          data: null,
          message: 'Self-registration is not open',
        });
      }
      expect(await t.db.select().from(verificationCode).where(eq(verificationCode.email, email))).toEqual([]);
      expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email))).toEqual([]);
    } finally {
      await t.setParam('UserRegisterLorawan', 'true');
    }
    expect((await sendCode(email)).body.success).toBe(true);
  });

  it('mails a 6-character code through SMTP and keeps only its hash', async () => {
    const email = uniqueEmail();
    const response = await sendCode(email);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      data: { resendAfterSeconds: VERIFICATION_RESEND_SECONDS },
    });
    const mail = await sink.mailTo(email);
    expect(mail.to).toEqual([email]);
    expect(mail.subject).toBe('Your UIOT Lock Console verification code');
    const code = await codeFromMail(email);
    expect(mail.text).toContain('valid for 10 minutes');

    const [row] = await t.db.select().from(verificationCode).where(eq(verificationCode.email, email));
    expect(row!.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.codeHash).not.toContain(code);
    expect(row!.expiresAt.getTime() - row!.sentAt.getTime()).toBe(10 * 60_000);

    const outbox = await eventually(async () => {
      const [sent] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email));
      return sent?.state === 'sent' ? sent : undefined;
    });
    expect(outbox.sentAt).not.toBeNull();
    expect(outbox.error).toBeNull();
    expect(outbox.body).toContain(code);
  });

  it('writes the mail in the language of the request', async () => {
    const email = uniqueEmail();
    await sendCode(email, { lang: 'zh-TW' });
    const mail = await sink.mailTo(email);
    expect(mail.subject).toBe('UIOT 鎖控管理平台註冊驗證碼');
    expect(mail.text).toContain('驗證碼 10 分鐘內有效');
    expect(await codeFromMail(email)).toMatch(CODE);
  });

  it('answers before the SMTP server has taken the mail, which stays pending until then', async () => {
    const email = uniqueEmail();
    sink.hold();
    try {
      const response = await sendCode(email);
      expect(response.body.success).toBe(true);
      const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email));
      expect(row!.state).toBe('pending');
      expect(sink.mails.some((m) => m.to.includes(email))).toBe(false);
    } finally {
      sink.release();
    }
    await sink.mailTo(email);
    await eventually(async () => {
      const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email));
      return row?.state === 'sent' ? row : undefined;
    });
  });

  it('refuses another code to the same address within 300 s (1052), and sends one after', async () => {
    const email = uniqueEmail();
    await sendCode(email);
    const first = await codeFromMail(email);

    const again = await sendCode(email.toUpperCase());
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ success: false, code: ResultCode.VerificationTooSoon });
    const seconds = (again.body.data as { resendAfterSeconds: number }).resendAfterSeconds;
    expect(seconds).toBeGreaterThan(VERIFICATION_RESEND_SECONDS - 30);
    expect(seconds).toBeLessThanOrEqual(VERIFICATION_RESEND_SECONDS);
    expect(again.body.message).toBe(`A code was sent already, please try again in ${seconds} s`);
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email))).toHaveLength(1);
    expect((await verify(email, first)).data).toBe(true);

    await t.db
      .update(verificationCode)
      .set({ sentAt: new Date(Date.now() - (VERIFICATION_RESEND_SECONDS + 1) * 1000) })
      .where(eq(verificationCode.email, email));
    expect((await sendCode(email)).body.success).toBe(true);
    const second = await codeFromMail(email, 1);
    // One active code per address: the new one replaces the old.
    if (second !== first) expect((await verify(email, first)).data).toBe(false);
    expect((await verify(email, second)).data).toBe(true);
  });

  it('sends at most 10 codes an hour from one client address (429 with the seconds to wait)', async () => {
    const ip = freshAddress();
    for (let i = 0; i < 10; i++) {
      const response = await sendCode(uniqueEmail(), { ip });
      expect(response.body.success, `send ${i + 1}`).toBe(true);
    }
    const refused = await sendCode(uniqueEmail(), { ip });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe(ResultCode.TooManyRequests);
    const seconds = Number(refused.headers['retry-after']);
    expect(seconds).toBeGreaterThan(3500);
    expect(seconds).toBeLessThanOrEqual(3600);
    expect(refused.body.message).toBe(`Too many requests, please try again in ${seconds} s`);
    expect((await sendCode(uniqueEmail(), { ip: freshAddress() })).body.success).toBe(true);
  });

  it('verifies a code without using it up; a wrong code answers false', async () => {
    const email = uniqueEmail();
    await sendCode(email);
    const code = await codeFromMail(email);
    expect((await verify(email, code)).data).toBe(true);
    expect((await verify(email, code)).data).toBe(true);
    expect((await verify(email.toUpperCase(), code.toLowerCase())).data).toBe(true);
    const wrong = code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA';
    expect(await verify(email, wrong)).toMatchObject({ success: true, data: false });
    expect((await verify(uniqueEmail(), code)).data).toBe(false);
    expect((await verify(email, code)).data).toBe(true);
  });

  it('voids a code after 5 wrong attempts, and not before', async () => {
    const email = uniqueEmail();
    await sendCode(email);
    const code = await codeFromMail(email);
    const wrong = code === 'ZZZZZZ' ? 'YYYYYY' : 'ZZZZZZ';
    for (let i = 0; i < 4; i++) expect((await verify(email, wrong)).data).toBe(false);
    expect((await verify(email, code)).data).toBe(true);
    expect((await verify(email, wrong)).data).toBe(false);
    expect((await verify(email, code)).data).toBe(false);
    const response = await register(formFor(email, code));
    expect(response.body).toMatchObject({ success: false, code: ResultCode.VerificationCodeInvalid });
  });

  it('lets a code expire after 10 minutes', async () => {
    const email = uniqueEmail();
    await sendCode(email);
    const code = await codeFromMail(email);
    expect((await verify(email, code)).data).toBe(true);
    await t.db
      .update(verificationCode)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verificationCode.email, email));
    expect((await verify(email, code)).data).toBe(false);
    const form = formFor(email, code);
    expect((await register(form)).body.code).toBe(ResultCode.VerificationCodeInvalid);
    expect(await t.db.select().from(staff).where(eq(staff.name, form.name))).toEqual([]);
  });

  it('expires a code by the clock of the service', async () => {
    let now = Date.now();
    const clocked = await createTestApp(t.database, { services: { now: () => new Date(now) } });
    try {
      const email = uniqueEmail();
      await clocked.call(api.registration.sendVerificationCode, { query: { email } });
      const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email));
      const code = /[:：]\s*([0-9A-Z]{6})\s*$/m.exec(row!.body)![1]!;
      const check = async () =>
        (
          await clocked.call(api.registration.verifyVerificationCode, {
            query: { email, verificationCode: code },
          })
        ).body.data;
      now += 10 * 60_000 - 1000;
      expect(await check()).toBe(true);
      now += 1000;
      expect(await check()).toBe(false);
    } finally {
      await clocked.closeApp();
    }
  });

  it('registers a pending account and a system message for the administrators', async () => {
    const { form, account, message } = await registered({ staffType: 0, name: uniqueName('HK') });
    expect(account).toMatchObject({
      name: form.name,
      email: form.email,
      staffType: 0,
      status: 'pending',
      mustChangePassword: false,
    });
    expect(await verifyPassword(account.passwordHash, REGISTRANT_PASSWORD)).toBe(true);
    expect(message).toMatchObject({
      messageType: 'UserRegister',
      name: form.name,
      email: form.email,
      staffType: 0,
      staffId: account.id,
      operated: 0,
      operator: null,
      result: null,
    });
    expect(message.title).toContain(form.name);
    expect(message.content).toContain(form.email);
    expect(message.content).toContain('承办商');
    // The code is used up.
    expect((await verify(form.email, form.verificationCode)).data).toBe(false);
    const again = await register({ ...form, name: uniqueName('Other') });
    expect(again.body.code).toBe(ResultCode.VerificationCodeInvalid);
  });

  it('describes MTR staff as such in the system message', async () => {
    const { message } = await registered({ staffType: 1 });
    expect(message.content).toContain('港铁员工');
    expect(message.staffType).toBe(1);
  });

  it('keeps a pending account from signing in (1005)', async () => {
    const { form } = await registered();
    expect(await loginCode(form.name, REGISTRANT_PASSWORD)).toBe(ResultCode.AccountPending);
  });

  it('refuses a wrong code with 1051 and creates nothing', async () => {
    const email = uniqueEmail();
    await sendCode(email);
    const code = await codeFromMail(email);
    const form = formFor(email, code === 'QQQQQQ' ? 'WWWWWW' : 'QQQQQQ');
    const response = await register(form);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: false, code: ResultCode.VerificationCodeInvalid });
    expect(await t.db.select().from(staff).where(eq(staff.name, form.name))).toEqual([]);
    expect(await t.db.select().from(sysMessage).where(eq(sysMessage.name, form.name))).toEqual([]);
  });

  it('refuses a taken name with 1021 and leaves the code usable', async () => {
    const existing = await t.createStaff();
    const email = uniqueEmail();
    await sendCode(email);
    const code = await codeFromMail(email);
    const taken = existing.name.toUpperCase();
    const response = await register(formFor(email, code, { name: taken }));
    expect(response.body).toMatchObject({
      success: false,
      code: ResultCode.NameTaken,
      message: `The name "${taken}" is already in use`,
    });
    expect((await verify(email, code)).data).toBe(true);
    expect((await register(formFor(email, code))).body.success).toBe(true);
  });

  it('checks the password with the strong policy when StrongPassword is "true", else the basic rule', async () => {
    const email = uniqueEmail();
    await sendCode(email);
    const code = await codeFromMail(email);
    // Upper, lower and digits, but a common password: the basic rule allows it, the strong policy does not.
    const common = { password: 'Password1', confirmPassword: 'Password1' };
    const strongRefusal = await register(formFor(email, code, common));
    expect(strongRefusal.status).toBe(400);
    expect(strongRefusal.body.code).toBe(ResultCode.InvalidInput);
    expect(strongRefusal.body.data).toEqual([
      { path: 'password', message: 'This password is too common, choose another' },
    ]);
    const sequence = await register(
      formFor(email, code, { password: 'Abc-9753', confirmPassword: 'Abc-9753' }),
    );
    expect(sequence.body.data).toEqual([
      { path: 'password', message: 'The password must not contain runs like 123, abc or ABC' },
    ]);
    try {
      await t.setParam('StrongPassword', 'false');
      const weak = await register(
        formFor(email, code, { password: 'railworks1', confirmPassword: 'railworks1' }),
      );
      expect(weak.status).toBe(400);
      expect(weak.body.data).toEqual([
        { path: 'password', message: 'At least 8 characters with upper case, lower case and digits' },
      ]);
      const form = formFor(email, code, common);
      expect((await register(form)).body.success).toBe(true);
      const [account] = await t.db.select().from(staff).where(eq(staff.name, form.name));
      expect(account!.status).toBe('pending');
    } finally {
      await t.setParam('StrongPassword', 'true');
    }
  });

  it('refuses a form whose passwords differ (400 on confirmPassword)', async () => {
    const response = await register(
      formFor(uniqueEmail(), 'ABC123', { confirmPassword: `${REGISTRANT_PASSWORD}x` }),
    );
    expect(response.status).toBe(400);
    expect(response.body.data).toEqual([
      { path: 'confirmPassword', message: 'The two passwords do not match' },
    ]);
  });

  it('approves: the account is activated, signs in, and the registrant gets the approval mail', async () => {
    const { form, account, message } = await registered();
    const admin = await reviewer();
    const before = Date.now();
    const response = await review(admin.token, { id: message.id, approve: true, remark: 'Welcome' });
    expect(response.body).toMatchObject({ success: true, code: ResultCode.Ok });

    const [activated] = await t.db.select().from(staff).where(eq(staff.id, account.id));
    expect(activated!.status).toBe('activated');
    expect(await loginCode(form.name, REGISTRANT_PASSWORD)).toBe(ResultCode.Ok);

    const [handled] = await t.db.select().from(sysMessage).where(eq(sysMessage.id, message.id));
    expect(handled).toMatchObject({
      operated: 1,
      operator: admin.name,
      result: 'approved',
      remark: 'Welcome',
    });
    expect(handled!.operatedAt!.getTime()).toBeGreaterThanOrEqual(before - 5_000);

    const mail = await sink.mailTo(form.email, 1);
    expect(mail.subject).toBe('Your UIOT Lock Console registration was approved');
    expect(mail.text).toContain(`Hello ${form.name},`);
    expect(mail.text).not.toContain(REGISTRANT_PASSWORD);
  });

  it('rejects: the account is rejected, cannot sign in, and the mail carries the remark', async () => {
    const { form, account, message } = await registered();
    const admin = await reviewer();
    const remark = 'No contract on file for this HKID';
    const response = await review(admin.token, { id: message.id, approve: false, remark }, 'zh-CN');
    expect(response.body.success).toBe(true);

    const [rejected] = await t.db.select().from(staff).where(eq(staff.id, account.id));
    expect(rejected!.status).toBe('rejected');
    expect(await loginCode(form.name, REGISTRANT_PASSWORD)).toBe(ResultCode.AccountRejected);
    const [handled] = await t.db.select().from(sysMessage).where(eq(sysMessage.id, message.id));
    expect(handled).toMatchObject({ operated: 1, operator: admin.name, result: 'rejected', remark });

    const mail = await sink.mailTo(form.email, 1);
    expect(mail.subject).toBe('UIOT 锁控管理平台账号注册未通过');
    expect(mail.text).toContain(`审核意见：${remark}`);
  });

  it('rejects without a remark with the mail that has none', async () => {
    const { form, message } = await registered();
    const admin = await reviewer();
    expect((await review(admin.token, { id: message.id, approve: false })).body.success).toBe(true);
    const mail = await sink.mailTo(form.email, 1);
    expect(mail.text).not.toContain('Remark');
    expect(mail.text).toContain('was not approved');
  });

  it('refuses to review a handled registration again (1053), and an unknown one (404)', async () => {
    const { account, message } = await registered();
    const admin = await reviewer();
    expect((await review(admin.token, { id: message.id, approve: true })).body.success).toBe(true);
    const second = await review(admin.token, { id: message.id, approve: false, remark: 'changed my mind' });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({
      success: false,
      code: ResultCode.RegistrationHandled,
      data: null,
      message: 'This registration has already been handled',
    });
    const [still] = await t.db.select().from(staff).where(eq(staff.id, account.id));
    expect(still!.status).toBe('activated');
    const [handled] = await t.db.select().from(sysMessage).where(eq(sysMessage.id, message.id));
    expect(handled).toMatchObject({ result: 'approved', remark: null });
    const unknown = await review(admin.token, { id: 'no-such-message', approve: true });
    expect([unknown.status, unknown.body.code]).toEqual([404, ResultCode.NotFound]);
  });

  it('lists system messages newest first, filtered by type and by handled or waiting', async () => {
    const first = await registered();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const second = await registered();
    const admin = await reviewer();
    await review(admin.token, { id: first.message.id, approve: true });

    const page = async (query: Record<string, string>) => {
      const response = await t.call(api.registration.querySysMessagePage, {
        token: admin.token,
        query: { pageSize: '100', ...query },
      });
      expect(response.status).toBe(200);
      return response.body.data;
    };
    const all = await page({ messageType: 'UserRegister' });
    const ids = all.rows.map((r) => r.id);
    expect(ids.indexOf(second.message.id)).toBeLessThan(ids.indexOf(first.message.id));
    expect(ids.indexOf(first.message.id)).toBeGreaterThanOrEqual(0);
    const times = all.rows.map((r) => Date.parse(r.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(all.total).toBeGreaterThanOrEqual(2);

    const waiting = await page({ operated: '0' });
    expect(waiting.rows.every((r) => r.operated === 0)).toBe(true);
    expect(waiting.rows.map((r) => r.id)).toContain(second.message.id);
    expect(waiting.rows.map((r) => r.id)).not.toContain(first.message.id);
    const handled = await page({ operated: '1' });
    expect(handled.rows.find((r) => r.id === first.message.id)).toMatchObject({
      operated: 1,
      operator: admin.name,
      result: 'approved',
      name: first.form.name,
      email: first.form.email,
      staffType: 1,
    });
    expect(handled.total + waiting.total).toBe(all.total);

    const oldestFirst = await page({ sort: 'createdAt', ascending: 'true' });
    const ascending = oldestFirst.rows.map((r) => Date.parse(r.createdAt));
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    const paged = await page({ pageSize: '1', pageIndex: '2' });
    expect(paged.rows).toHaveLength(1);
    expect(paged.rows[0]!.id).toBe(all.rows[1]!.id);
  });

  it('lists the outbox newest first with the bodies, filtered by recipient, without passwords', async () => {
    const { form } = await registered();
    const admin = await reviewer();
    await review(admin.token, {
      id: (await t.db.select().from(sysMessage).where(eq(sysMessage.name, form.name)))[0]!.id,
      approve: true,
    });
    await sink.mailTo(form.email, 1);
    await t.services.mail.idle();
    const response = await t.call(api.registration.queryOutboxPage, {
      token: admin.token,
      query: { recipient: form.email.slice(0, 12).toUpperCase() },
    });
    expect(response.status).toBe(200);
    const rows = response.body.data.rows;
    expect(rows).toHaveLength(2);
    expect(response.body.data.total).toBe(2);
    expect(rows.map((r) => r.subject)).toEqual([
      'Your UIOT Lock Console registration was approved',
      'Your UIOT Lock Console verification code',
    ]);
    expect(rows[1]!.body).toContain(form.verificationCode);
    for (const row of rows) {
      expect(row).toMatchObject({ recipient: form.email, state: 'sent', error: null });
      expect(row.body).not.toContain(REGISTRANT_PASSWORD);
    }
  });

  it('needs the registration and outbox keys (403 without them)', async () => {
    const plain = await t.createStaff({ permissions: [Permission.OpLogRead] });
    const token = await t.signIn(plain.name, plain.password);
    const calls = [
      t.call(api.registration.querySysMessagePage, { token }),
      t.call(api.registration.queryOutboxPage, { token }),
      review(token, { id: 'x', approve: true }),
    ];
    for (const response of await Promise.all(calls)) {
      expect([response.status, response.body.code]).toEqual([403, ResultCode.Forbidden]);
    }
  });

  it('never writes the code or the password to the operation log', async () => {
    const { form } = await registered();
    const rows = await eventually(async () => {
      const found = await t.db
        .select()
        .from(opLog)
        .where(sql`${opLog.methodArgs} like ${`%${form.email}%`}`);
      return found.length >= 2 ? found : undefined;
    });
    expect(rows.map((r) => r.url).sort()).toEqual(
      [api.registration.sendVerificationCode, api.registration.userRegister].map(urlOf),
    );
    for (const row of rows) {
      expect(row.methodArgs).not.toContain(form.verificationCode);
      expect(row.methodArgs).not.toContain(REGISTRANT_PASSWORD);
    }
    const registration = rows.find((r) => r.url === urlOf(api.registration.userRegister))!;
    expect(JSON.parse(registration.methodArgs!)).toMatchObject({
      verificationCode: '***',
      password: '***',
      confirmPassword: '***',
    });
  });

  describe('without an SMTP server', () => {
    it('keeps the mail in the outbox with state kept', async () => {
      const kept = await createTestApp(t.database);
      try {
        const email = uniqueEmail();
        const response = await kept.call(api.registration.sendVerificationCode, {
          query: { email },
          remoteAddress: freshAddress(),
        });
        expect(response.body.success).toBe(true);
        await kept.services.mail.idle();
        const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email));
        expect(row).toMatchObject({ state: 'kept', sentAt: null, error: null });
        expect(row!.subject).toBe('UIOT 锁控管理平台注册验证码');
        expect(row!.body).toMatch(/验证码为：[0-9A-Z]{6}/);
        expect(sink.mails.some((m) => m.to.includes(email))).toBe(false);
      } finally {
        await kept.closeApp();
      }
    });

    it('marks the mail failed, with the error, when the SMTP server cannot be reached', async () => {
      const port = await freePort();
      const failing = await createTestApp(t.database, { smtpUrl: `smtp://127.0.0.1:${port}` });
      try {
        const email = uniqueEmail();
        await failing.call(api.registration.sendVerificationCode, {
          query: { email },
          remoteAddress: freshAddress(),
        });
        await failing.services.mail.idle();
        const [row] = await t.db
          .select()
          .from(mailOutbox)
          .where(and(eq(mailOutbox.recipient, email)));
        expect(row).toMatchObject({ state: 'failed', sentAt: null, attempts: 1 });
        expect(row!.error).toMatch(/ECONNREFUSED|connect/i);
      } finally {
        await failing.closeApp();
      }
    });
  });
});
