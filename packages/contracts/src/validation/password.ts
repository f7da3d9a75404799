import { z } from 'zod';
import { passwordProblemMessage, passwordProblems } from './password-policy.ts';

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

/** The rule a chosen password must meet: the strong policy while StrongPassword is on, and for whom. */
export interface PasswordPolicy {
  /** The parameter StrongPassword is on. */
  strong: boolean;
  /** The account's user name, which a strong password must not contain. */
  userName: string;
}

/**
 * Why a chosen password is refused, as message keys: the strong policy when StrongPassword is on (spec §5),
 * the change-password rule otherwise. The one rule of every path that sets a password someone chose: a new
 * staff member, a registration, changing one's own, the admin's reset.
 */
export function passwordIssueKeys(password: string, policy: PasswordPolicy): string[] {
  if (policy.strong) return passwordProblems(password, policy.userName).map((p) => passwordProblemMessage[p]);
  return meetsPasswordRule(password) ? [] : ['v.passwordRule'];
}

const changePasswordSchema = (policy: PasswordPolicy | null) =>
  z
    .object({
      oldPwd: z
        .string({ error: 'v.oldPassword' })
        .min(1, { error: 'v.oldPassword' })
        .max(128, { error: 'v.tooLong' }),
      newPwd: z
        .string({ error: 'v.newPassword' })
        .min(1, { error: 'v.newPassword' })
        .max(128, { error: 'v.tooLong' }),
      confirmPwd: z
        .string({ error: 'v.confirmPassword' })
        .min(1, { error: 'v.confirmPassword' })
        .max(128, { error: 'v.tooLong' }),
    })
    .superRefine(
      (form, ctx) => {
        // Run while other fields are still empty, so that the new password is judged as it is typed.
        const text = (value: unknown) => (typeof value === 'string' ? value : '');
        const [oldPwd, newPwd, confirmPwd] = [text(form.oldPwd), text(form.newPwd), text(form.confirmPwd)];
        if (newPwd && newPwd.length <= 128) {
          // The same password again says just that; otherwise each problem under the policy is an issue.
          const problems =
            oldPwd && newPwd === oldPwd
              ? ['v.passwordSameAsOld']
              : policy
                ? passwordIssueKeys(newPwd, policy)
                : [];
          for (const message of problems) ctx.addIssue({ code: 'custom', path: ['newPwd'], message });
        }
        if (confirmPwd && newPwd !== confirmPwd) {
          ctx.addIssue({ code: 'custom', path: ['confirmPwd'], message: 'v.passwordMismatch' });
        }
      },
      { when: () => true },
    );

/**
 * Change-password request (spec §5): the fields, the new one differing from the old and confirmed. Which
 * rule the new password meets depends on StrongPassword and on the user: the server applies it
 * (`passwordIssueKeys`), the dialog with `changePasswordFormFor`.
 */
export const changePasswordRequest = changePasswordSchema(null);
export type ChangePasswordForm = z.infer<typeof changePasswordRequest>;

/** The change-password form under the policy in force, for the dialog to say what the server will. */
export const changePasswordFormFor = (policy: PasswordPolicy) => changePasswordSchema(policy);

/** The change-password form while StrongPassword is off: the change-password rule. */
export const changePasswordForm = changePasswordFormFor({ strong: false, userName: '' });
