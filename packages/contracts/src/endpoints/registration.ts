import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { pageQuery, pageResult } from '../paging.ts';
import { Permission } from '../permissions.ts';
import { registrationForm } from '../validation/org-forms.ts';

const emailQuery = z.object({
  email: z
    .string({ error: 'v.required' })
    .trim()
    .min(1, { error: 'v.required' })
    .pipe(z.email({ error: 'v.email' })),
});

/** Seconds before another code may be sent to the same address (spec §4: 300 s countdown). */
export const VERIFICATION_RESEND_SECONDS = 300;

export const sendVerificationCode = defineEndpoint({
  method: 'GET',
  path: '/staff/sendVerificationcode',
  access: 'public',
  module: 'registration',
  summary: 'Mail a 6-character verification code for self-registration',
  query: emailQuery,
  response: z.object({ resendAfterSeconds: z.number().int() }),
  mutating: true,
});

export const verifyVerificationCode = defineEndpoint({
  method: 'GET',
  path: '/staff/verifiyVerificationcode',
  access: 'public',
  module: 'registration',
  summary: 'Check a verification code without using it up',
  query: emailQuery.extend({ verificationCode: z.string().trim().max(6, { error: 'v.code6' }) }),
  response: z.boolean(),
  secretFields: ['verificationCode'],
});

export const userRegister = defineEndpoint({
  method: 'POST',
  path: '/staff/userRegister',
  access: 'public',
  module: 'registration',
  summary: 'Register (self-registration); the account waits for an administrator',
  body: registrationForm,
  response: z.null(),
  secretFields: ['password', 'confirmPassword', 'verificationCode'],
});

export const SYS_MESSAGE_TYPES = ['UserRegister'] as const;

export const sysMessageRow = z.object({
  id: z.string(),
  messageType: z.enum(SYS_MESSAGE_TYPES),
  title: z.string(),
  content: z.string().nullable(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  staffType: z.number().int().nullable(),
  staffId: z.string().nullable(),
  operated: z.number().int(),
  operator: z.string().nullable(),
  result: z.enum(['approved', 'rejected']).nullable(),
  remark: z.string().nullable(),
  createdAt: z.string(),
  operatedAt: z.string().nullable(),
});
export type SysMessageRow = z.infer<typeof sysMessageRow>;

export const querySysMessagePage = defineEndpoint({
  method: 'GET',
  path: '/sysMessage/queryPage',
  access: Permission.RegistrationRead,
  module: 'registration',
  summary: 'System messages (user registrations), paged',
  query: pageQuery.extend({
    messageType: z.enum(SYS_MESSAGE_TYPES).optional(),
    operated: z.coerce.number().int().min(0).max(1).optional(),
  }),
  response: pageResult(sysMessageRow),
});

export const reviewRegistration = defineEndpoint({
  method: 'POST',
  path: '/sysMessage/reviewRegistration',
  access: Permission.RegistrationReview,
  module: 'registration',
  summary: 'Approve (activate the account) or reject a registration; the registrant is told by mail',
  body: z.object({
    id: z.string().min(1).max(64),
    approve: z.boolean(),
    remark: z.string().trim().max(255, { error: 'v.tooLong' }).optional(),
  }),
  response: z.null(),
});

export const outboxRow = z.object({
  id: z.string(),
  recipient: z.string(),
  subject: z.string(),
  body: z.string(),
  state: z.enum(['pending', 'sent', 'failed', 'kept']),
  error: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});

export const queryOutboxPage = defineEndpoint({
  method: 'GET',
  path: '/mail/queryOutbox',
  access: Permission.OutboxRead,
  module: 'registration',
  summary: 'Mail outbox: every message the system sent or keeps (kept when no SMTP server is configured)',
  query: pageQuery.extend({ recipient: z.string().trim().max(128).optional() }),
  response: pageResult(outboxRow),
});
