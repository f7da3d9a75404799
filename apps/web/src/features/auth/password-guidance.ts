import { meetsPasswordRule, passwordProblemMessage, passwordProblems } from '@uiot/contracts';

/**
 * What a new password still lacks, live. Before sign-in the console does not know whether the strong
 * policy (StrongPassword) is on, so both rules are shown as guidance and the server decides.
 */
export function passwordGuidance(password: string, userName: string): string[] {
  const basic = meetsPasswordRule(password) ? [] : ['v.passwordRule'];
  const strong = passwordProblems(password, userName)
    // The basic rule already says "at least 8 characters".
    .filter((problem) => !(basic.length > 0 && problem === 'tooShort'))
    .map((problem) => passwordProblemMessage[problem]);
  return [...basic, ...strong];
}
