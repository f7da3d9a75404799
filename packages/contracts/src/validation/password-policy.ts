/**
 * The strong password policy for staff passwords (spec §5, parameter StrongPassword), a pure rule:
 * at least 8 characters of at least three of the four classes, not containing the user name, no runs
 * like 123 / abc / ABC (ascending or descending), no default user name, not a common password.
 */
export type PasswordProblem =
  | 'tooShort'
  | 'fewClasses'
  | 'containsUserName'
  | 'sequence'
  | 'defaultUserName'
  | 'common';

export const PASSWORD_POLICY_MIN_LENGTH = 8;

/** User names of default accounts that a password must not contain. */
export const DEFAULT_USER_NAMES = ['admin', 'administrator', 'root', 'sysadmin', 'guest', 'operator'];

/** The most common passwords (lower case), refused whatever their classes. */
const COMMON_PASSWORDS = new Set([
  'password',
  'password1',
  'password12',
  'password123',
  'passw0rd',
  'p@ssw0rd',
  'p@ssword',
  'p@ssword1',
  'qwerty',
  'qwerty12',
  'qwerty123',
  'qwertyuiop',
  'qwer1234',
  'q1w2e3r4',
  'q1w2e3r4t5',
  '1q2w3e4r',
  '1qaz2wsx',
  '1qaz@wsx',
  'zaq12wsx',
  'zaq1@wsx',
  'iloveyou',
  'iloveyou1',
  'welcome',
  'welcome1',
  'welcome123',
  'letmein',
  'letmein1',
  'monkey',
  'dragon',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'superman',
  'trustno1',
  'master',
  'hello123',
  'changeme',
  'changeme1',
  'secret',
  'starwars',
  'whatever',
  'freedom',
  'shadow',
  'michael',
  'jennifer',
  'computer',
  'internet',
  'aa123456',
  'a1234567',
  'a12345678',
  'abcd1234',
  'abc12345',
  'asdf1234',
  'asdfghjkl',
  'zxcvbnm',
  'zxcvbnm1',
  'pass1234',
  'pass@123',
  'test1234',
  'summer2024',
  'summer2025',
  'winter2025',
  'spring2026',
  'hongkong',
  'hongkong1',
  'china123',
  'woaini1314',
  'woaini520',
  'mtr12345',
  'railway1',
  'company1',
]);

function classesOf(password: string): number {
  return [/[A-Z]/, /[a-z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
}

/** True when the text holds three consecutive characters in ascending or descending order (123, cba). */
export function hasSequence(text: string, length = 3): boolean {
  const t = text.toLowerCase();
  for (let i = 0; i + length <= t.length; i++) {
    const run = t.slice(i, i + length);
    if (!/^(\d+|[a-z]+)$/.test(run)) continue;
    let up = true;
    let down = true;
    for (let j = 1; j < run.length; j++) {
      const step = run.charCodeAt(j) - run.charCodeAt(j - 1);
      up &&= step === 1;
      down &&= step === -1;
    }
    if (up || down) return true;
  }
  return false;
}

export function passwordProblems(password: string, userName: string): PasswordProblem[] {
  const problems: PasswordProblem[] = [];
  const lower = password.toLowerCase();
  if (password.length < PASSWORD_POLICY_MIN_LENGTH) problems.push('tooShort');
  if (classesOf(password) < 3) problems.push('fewClasses');
  const name = userName.trim().toLowerCase();
  if (name.length >= 3 && lower.includes(name)) problems.push('containsUserName');
  if (hasSequence(password)) problems.push('sequence');
  if (DEFAULT_USER_NAMES.some((n) => lower.includes(n))) problems.push('defaultUserName');
  const stripped = lower.replace(/[\d!@#$%^&*.]+$/, '');
  if (COMMON_PASSWORDS.has(lower) || (stripped.length >= 5 && COMMON_PASSWORDS.has(stripped))) {
    problems.push('common');
  }
  return problems;
}

/** Message keys of the problems, for forms and the server's field list. */
export const passwordProblemMessage: Record<PasswordProblem, string> = {
  tooShort: 'v.pwTooShort',
  fewClasses: 'v.pwFewClasses',
  containsUserName: 'v.pwContainsUserName',
  sequence: 'v.pwSequence',
  defaultUserName: 'v.pwDefaultUserName',
  common: 'v.pwCommon',
};
