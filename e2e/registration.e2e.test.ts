// Self-registration (spec §2 login screen, §4 Registration, §5): with UserRegisterLorawan on, a visitor
// registers through the login page (send code with its 300 s countdown, auto-verify of the 6th character,
// password guidance, confirmation), cannot sign in until an administrator approves the registration in
// System messages, the mail outbox lists the mails, and the new user signs in. With the flag off the login
// page offers no registration. Mail goes to a local SMTP sink, where the test reads the code.
import { api, resultMessages, validationMessages } from '@uiot/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../apps/server/test/support/smtp-sink.ts';
import zhSysMessage from '../apps/web/src/locales/zh-CN/sysMessage.json' with { type: 'json' };
import { ADMIN_PASSWORD, type RunningConsole, startConsole } from './support/console.ts';
import {
  apiResponse,
  BrowserSession,
  fieldError,
  fill,
  screenshot,
  shown,
  signIn,
  submitLogin,
  TEXTS,
  tableRow,
  toast,
} from './support/ui.ts';

const zh = TEXTS['zh-CN'];
const register = zh.auth.register;
const REGISTRANT = { name: 'MTR10086', email: 'mtr10086@example.com', password: 'Depot-Gate-58' };

let open: RunningConsole;
let closed: RunningConsole;
let sink: SmtpSink;
const browser = new BrowserSession();

beforeAll(async () => {
  sink = await startSmtpSink();
  [open, closed] = await Promise.all([
    startConsole({ params: { UserRegisterLorawan: 'true' }, env: { SMTP_URL: sink.url } }),
    startConsole(),
    browser.launch(),
  ]);
});
afterEach((context) => browser.closeAll(context));
afterAll(async () => {
  await browser.close();
  await Promise.all([open?.stop(), closed?.stop()]);
  await sink?.close();
});

/** The code of a verification mail ("验证码为：X7K2Q9"). */
function codeOf(text: string): string {
  const code = /[:：]\s*([0-9A-Z]{6})\s*$/m.exec(text)?.[1];
  if (!code) throw new Error(`no code in the mail:\n${text}`);
  return code;
}

describe('self-registration', () => {
  it('registers through the login page, waits for approval, then signs in', async () => {
    const visitor = await browser.open(open.url);
    const page = visitor.page;
    await page.goto('/login');
    await page.getByTestId('login-register-link').click();
    await page.getByTestId('register-form').waitFor();

    // The name is the StaffID of MTR staff and the HKID of contractors.
    const nameLabel = page.locator('.ant-form-item').filter({ has: page.getByTestId('register-name') });
    // The label follows the choice on the next render: read it until it does.
    const label = () => shown(nameLabel.locator('label'));
    expect(await label()).toBe(register.staffId);
    await page.getByTestId('register-staff-type-0').click();
    await expect.poll(label).toBe(register.hkid);
    await page.getByTestId('register-staff-type-1').click();
    await expect.poll(label).toBe(register.staffId);

    await page.getByTestId('register-name').fill(REGISTRANT.name);
    await page.getByTestId('register-email').fill(REGISTRANT.email);

    // Send the code: the button counts down from the server's 300 seconds, disabled.
    const sent = apiResponse(page, api.registration.sendVerificationCode);
    await page.getByTestId('register-send-code').click();
    expect(((await (await sent).json()) as { data: unknown }).data).toEqual({ resendAfterSeconds: 300 });
    await toast(page, fill(register.codeSent, { email: REGISTRANT.email })).waitFor();
    const send = page.getByTestId('register-send-code');
    await expect.poll(() => send.isDisabled()).toBe(true);
    expect(await shown(send)).toMatch(/^(300|299|298) 秒后重发$/);
    const code = codeOf((await sink.mailTo(REGISTRANT.email, 0)).text);

    // A wrong 6th character: "wrong code"; the right code is verified as soon as it is complete.
    const wrong = code.startsWith('0') ? `1${code.slice(1)}` : `0${code.slice(1)}`;
    let verified = apiResponse(page, api.registration.verifyVerificationCode);
    await page.getByTestId('register-code').fill(wrong);
    await verified;
    const status = page.getByTestId('register-code-status');
    await expect.poll(() => status.getAttribute('data-state')).toBe('wrong');
    expect((await shown(status)).trim()).toBe(register.codeWrong);
    verified = apiResponse(page, api.registration.verifyVerificationCode);
    await page.getByTestId('register-code').fill(code);
    expect(((await (await verified).json()) as { data: unknown }).data).toBe(true);
    await expect.poll(() => status.getAttribute('data-state')).toBe('verified');
    expect((await shown(status)).trim()).toBe(register.codeVerified);

    // Live password guidance; the confirmation must match.
    const guidance = page.getByTestId('register-password-guidance');
    await page.getByTestId('register-password').fill('abc');
    await expect.poll(() => guidance.getAttribute('data-state')).toBe('weak');
    await page.getByTestId('register-password').fill(REGISTRANT.password);
    await expect.poll(() => guidance.getAttribute('data-state')).toBe('ok');
    await page.getByTestId('register-confirm').fill(`${REGISTRANT.password}x`);
    await page.getByTestId('register-submit').click();
    await expect
      .poll(() => fieldError(page, 'register-confirm').allInnerTexts())
      .toEqual([validationMessages['v.passwordMismatch']['zh-CN']]);
    await page.getByTestId('register-confirm').fill(REGISTRANT.password);
    await screenshot(page, 'registration-form-zh-CN');

    // Submit: verified again, registered, back at the login view with the message.
    const registered = apiResponse(page, api.registration.userRegister);
    await page.getByTestId('register-submit').click();
    expect(((await (await registered).json()) as { success: boolean }).success).toBe(true);
    const notice = page.getByTestId('login-registered');
    await notice.waitFor();
    expect(await shown(notice)).toBe(fill(register.submitted, { name: REGISTRANT.name }));
    await expect.poll(() => page.getByTestId('login-username').inputValue()).toBe(REGISTRANT.name);

    // Not yet approved: no sign-in.
    const refused = await submitLogin(page, REGISTRANT.name, REGISTRANT.password);
    const refusal = (await refused.json()) as { success: boolean; message: string };
    expect(refusal.success).toBe(false);
    expect(refusal.message).toBe(resultMessages.AccountPending['zh-CN']);
    await toast(page, refusal.message).waitFor();

    // The administrator approves it in System messages.
    const admin = (await browser.open(open.url)).page;
    await signIn(admin, 'admin', ADMIN_PASSWORD);
    await admin.goto('/sysMessage');
    const pending = tableRow(admin, 'registrations-table', REGISTRANT.email);
    await pending.waitFor();
    expect(await shown(pending)).toContain(zhSysMessage.registration.state.pending);
    expect(await shown(pending)).toContain(zhSysMessage.staffType.mtr);
    await pending.getByTestId('registrations-row-approve').click();
    await admin.getByTestId('review').waitFor();
    await admin.getByTestId('review-remark').fill('StaffID checked');
    const reviewed = apiResponse(admin, api.registration.reviewRegistration);
    await admin.getByTestId('review-submit').click();
    expect(((await (await reviewed).json()) as { success: boolean }).success).toBe(true);
    await toast(admin, zh.common.outcome.audit.success).waitFor();
    const approved = tableRow(admin, 'registrations-table', REGISTRANT.email);
    await expect.poll(() => shown(approved)).toContain(zhSysMessage.registration.state.approved);
    expect(await shown(approved)).toContain('StaffID checked');
    expect(await approved.getByTestId('registrations-row-approve').count()).toBe(0);
    const approvalMail = await sink.mailTo(REGISTRANT.email, 1);
    expect(approvalMail.text).toContain(REGISTRANT.name);

    // The mail outbox lists both mails to the registrant, delivered.
    await admin.getByTestId('sys-message-tab-outbox').click();
    const mails = admin
      .getByTestId('outbox-table')
      .locator('tr.ant-table-row', { hasText: REGISTRANT.email });
    await expect.poll(() => mails.count()).toBe(2);
    await expect.poll(() => mails.getByTestId('outbox-state-sent').count()).toBe(2);
    await mails.filter({ hasText: approvalMail.subject }).getByTestId('outbox-row-view').click();
    expect(await shown(admin.getByTestId('outbox-mail-body'))).toContain(REGISTRANT.name);

    // Now the new user signs in.
    await signIn(page, REGISTRANT.name, REGISTRANT.password);
    await page.getByTestId('sidebar').waitFor();
  });

  it('offers no registration when UserRegisterLorawan is off', async () => {
    const { page } = await browser.open(closed.url);
    const params = apiResponse(page, api.system.getLoginParams);
    await page.goto('/login');
    expect(((await (await params).json()) as { data: unknown }).data).toEqual({ userRegister: false });
    await page.getByTestId('login-form').waitFor();
    expect(await page.getByTestId('login-register-link').count()).toBe(0);
    expect(await page.getByTestId('register-form').count()).toBe(0);
  });
});
