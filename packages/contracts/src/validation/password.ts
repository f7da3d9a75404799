import { z } from 'zod';

export const PASSWORD_MIN_LENGTH = 8;

/** The change-password rule (spec §5): at least 8 characters with upper case, lower case and digits. */
export function meetsPasswordRule(password: string): boolean {
  return (
    password.length >= PASSWORD_MIN_LENGTH &&
    /[A-Z]/.test(password) &&
    /[a-z]/.test(password) &&
    /\d/.test(password)
  );
}

/** Change-password form, shared by the dialog and the server (spec §5). */
export const changePasswordForm = z
  .object({
    oldPwd: z
      .string({ error: 'v.oldPassword' })
      .min(1, { error: 'v.oldPassword' })
      .max(128, { error: 'v.tooLong' }),
    newPwd: z
      .string({ error: 'v.newPassword' })
      .min(1, { error: 'v.newPassword' })
      .max(128, { error: 'v.tooLong' })
      .refine(meetsPasswordRule, { error: 'v.passwordRule' }),
    confirmPwd: z
      .string({ error: 'v.confirmPassword' })
      .min(1, { error: 'v.confirmPassword' })
      .max(128, { error: 'v.tooLong' }),
  })
  .superRefine((form, ctx) => {
    if (form.newPwd && form.oldPwd && form.newPwd === form.oldPwd) {
      ctx.addIssue({ code: 'custom', path: ['newPwd'], message: 'v.passwordSameAsOld' });
    }
    if (form.confirmPwd && form.newPwd !== form.confirmPwd) {
      ctx.addIssue({ code: 'custom', path: ['confirmPwd'], message: 'v.passwordMismatch' });
    }
  });
export type ChangePasswordForm = z.infer<typeof changePasswordForm>;
