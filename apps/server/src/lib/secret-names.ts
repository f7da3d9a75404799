/** Words that make a named value a secret: a password, a PIN, a secret or a token. */
const SECRET_WORDS = new Set(['password', 'passcode', 'pwd', 'pin', 'secret', 'token']);

/**
 * Whether a name (a command parameter, a query parameter) has a secret word among its words, `_ . -` or
 * space separated or camelCase: `pinSecret`, `new_password`, `door.pin` do; `spin`, `deviceCode` do not.
 */
export function hasSecretWord(name: string): boolean {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[\s_.-]+/);
  return words.some((word) => SECRET_WORDS.has(word.toLowerCase()));
}
