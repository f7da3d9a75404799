import {
  DEFAULT_LANG,
  type FieldIssue,
  type Lang,
  type Page,
  type PageQuery,
  passwordIssueKeys,
  type RegistrationForm,
  ResultCode,
  type SysMessageRow,
  translateValidation,
  VERIFICATION_RESEND_SECONDS,
} from '@uiot/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { paged } from '../../db/paging.ts';
import { AppError } from '../../http/app-error.ts';
import type { SessionUser } from '../../http/request-context.ts';
import { hashPassword } from '../../lib/password-hash.ts';
import { checkLoginThrottle, recordLoginFailure } from '../auth/index.ts';
import type { MailService } from '../mail/index.ts';
import { mailTemplates } from '../mail/index.ts';
import { checkAccountWithin } from '../org/index.ts';
import { staff } from '../org/org.schema.ts';
import type { ParamService } from '../params/index.ts';
import { sysMessage } from './registration.schema.ts';
import { registrationMessageText } from './registration-texts.ts';
import { checkCode, storeCode } from './verification-code.repository.ts';
import {
  CODE_TTL_MS,
  generateCode,
  resendWaitSeconds,
  SEND_CODE_ADDRESS_POLICY,
} from './verification-code.ts';

const sendCodeKey = (ipAddr: string) => `send-code:${ipAddr}`;

function invalid(path: string, keys: string[], lang: Lang): AppError {
  return AppError.invalid(keys.map((key): FieldIssue => ({ path, message: translateValidation(key, lang) })));
}

/**
 * Self-registration (spec §2 login screen, §4 Registration): mailed codes, registration of a pending
 * account, and the administrators' review through the system messages.
 */
export class RegistrationService {
  constructor(
    private readonly db: Db,
    private readonly params: ParamService,
    private readonly mail: MailService,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private async ensureOpen(): Promise<void> {
    if (!(await this.params.getBoolean('UserRegisterLorawan'))) {
      throw new AppError(ResultCode.RegistrationClosed);
    }
  }

  /** Mails a new code to an address; refused within 300 s of the last one, and beyond 10 per client address. */
  async sendCode(email: string, ipAddr: string, lang: Lang): Promise<{ resendAfterSeconds: number }> {
    await this.ensureOpen();
    const now = this.now();
    const verdict = await checkLoginThrottle(this.db, sendCodeKey(ipAddr), now, SEND_CODE_ADDRESS_POLICY);
    if (!verdict.allowed) {
      throw new AppError(ResultCode.TooManyRequests, {
        params: { seconds: Math.ceil(verdict.retryAfterMs / 1000) },
      });
    }
    const code = generateCode();
    const stored = await storeCode(this.db, email, code, now);
    if (!stored.stored) {
      const seconds = resendWaitSeconds(stored.sentAt, now);
      throw new AppError(ResultCode.VerificationTooSoon, {
        params: { seconds },
        data: { resendAfterSeconds: seconds },
      });
    }
    await recordLoginFailure(this.db, sendCodeKey(ipAddr), now, SEND_CODE_ADDRESS_POLICY);
    await this.mail.send({
      to: email,
      ...mailTemplates.verificationCode(lang, { code, minutes: CODE_TTL_MS / 60_000 }),
    });
    return { resendAfterSeconds: VERIFICATION_RESEND_SECONDS };
  }

  /** Whether the code fits, without using it up; a wrong code counts towards the 5 attempts. */
  async verifyCode(email: string, code: string): Promise<boolean> {
    await this.ensureOpen();
    return (await checkCode(this.db, email, code, this.now(), false)) === 'valid';
  }

  /**
   * Registers a pending account: the password policy, the code (checked again and used up), a free
   * name; the staff row and the administrators' system message are written in one transaction.
   */
  async register(form: RegistrationForm, lang: Lang): Promise<void> {
    await this.ensureOpen();
    const strong = await this.params.getBoolean('StrongPassword');
    const problems = passwordIssueKeys(form.password, { strong, userName: form.name });
    if (problems.length > 0) throw invalid('password', problems, lang);

    const now = this.now();
    if ((await checkCode(this.db, form.email, form.verificationCode, now, false)) !== 'valid') {
      throw new AppError(ResultCode.VerificationCodeInvalid);
    }
    const nameTaken = new AppError(ResultCode.NameTaken, { params: { name: form.name } });
    const [taken] = await this.db
      .select({ id: staff.id })
      .from(staff)
      .where(sql`lower(${staff.name}) = ${form.name.toLowerCase()}`);
    if (taken) throw nameTaken;

    const passwordHash = await hashPassword(form.password);
    const text = registrationMessageText(DEFAULT_LANG, form);
    try {
      await this.db.transaction(async (tx) => {
        if ((await checkCode(tx, form.email, form.verificationCode, now, true)) !== 'valid') {
          throw new AppError(ResultCode.VerificationCodeInvalid);
        }
        const [created] = await tx
          .insert(staff)
          .values({
            name: form.name,
            email: form.email,
            passwordHash,
            staffType: form.staffType,
            status: 'pending',
            // The registrant chose this password: no forced change at the first sign-in.
            mustChangePassword: false,
            passwordChangedAt: now,
          })
          .returning({ id: staff.id });
        await tx.insert(sysMessage).values({
          messageType: 'UserRegister',
          title: text.title,
          content: text.content,
          name: form.name,
          email: form.email,
          staffType: form.staffType,
          staffId: created!.id,
          createdAt: now,
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken;
      throw error;
    }
  }

  /** System messages, newest first; filtered by type and by handled (1) or waiting (0). */
  async querySysMessages(
    query: PageQuery & { messageType?: string | undefined; operated?: number | undefined },
  ): Promise<Page<SysMessageRow>> {
    const rows = this.db
      .select()
      .from(sysMessage)
      .where(
        and(
          query.messageType ? eq(sysMessage.messageType, query.messageType) : undefined,
          query.operated === undefined ? undefined : eq(sysMessage.operated, query.operated),
        ),
      )
      .$dynamic();
    const page = await paged(this.db, rows, { createdAt: sysMessage.createdAt }, query, {
      defaultSort: { by: 'createdAt', ascending: false },
      tieBreaker: sysMessage.id,
    });
    return {
      total: page.total,
      rows: page.rows.map((r) => ({
        id: r.id,
        messageType: r.messageType as SysMessageRow['messageType'],
        title: r.title,
        content: r.content,
        name: r.name,
        email: r.email,
        staffType: r.staffType,
        staffId: r.staffId,
        operated: r.operated,
        operator: r.operator,
        result: r.result as SysMessageRow['result'],
        remark: r.remark,
        createdAt: r.createdAt.toISOString(),
        operatedAt: r.operatedAt?.toISOString() ?? null,
      })),
    };
  }

  /**
   * Approves (activates the account) or rejects a registration once: the message is marked handled by
   * the reviewer, and the registrant is told by mail after the commit.
   */
  async review(
    reviewer: SessionUser,
    input: { id: string; approve: boolean; remark?: string | undefined },
    lang: Lang,
  ): Promise<void> {
    const now = this.now();
    const remark = input.remark ? input.remark : null;
    const message = await this.db.transaction(async (tx) => {
      const [handled] = await tx
        .update(sysMessage)
        .set({
          operated: 1,
          operator: reviewer.staffName,
          result: input.approve ? 'approved' : 'rejected',
          remark,
          operatedAt: now,
        })
        .where(
          and(
            eq(sysMessage.id, input.id),
            eq(sysMessage.messageType, 'UserRegister'),
            eq(sysMessage.operated, 0),
          ),
        )
        .returning();
      if (!handled) {
        const [exists] = await tx
          .select({ id: sysMessage.id })
          .from(sysMessage)
          .where(and(eq(sysMessage.id, input.id), eq(sysMessage.messageType, 'UserRegister')));
        throw new AppError(exists ? ResultCode.RegistrationHandled : ResultCode.NotFound);
      }
      if (handled.staffId && input.approve) {
        // An approved account signs in with whatever keys it was given meanwhile (finding 8).
        await checkAccountWithin(tx, reviewer, handled.staffId);
      }
      if (handled.staffId) {
        await tx
          .update(staff)
          .set({ status: input.approve ? 'activated' : 'rejected', updatedAt: now })
          .where(and(eq(staff.id, handled.staffId), eq(staff.status, 'pending')));
      }
      return handled;
    });
    if (message.email) {
      const name = message.name ?? '';
      await this.mail.send({
        to: message.email,
        ...(input.approve
          ? mailTemplates.registrationApproved(lang, { name })
          : mailTemplates.registrationRejected(lang, { name, remark })),
      });
    }
  }
}
