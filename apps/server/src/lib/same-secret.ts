import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether two secrets (passwords, tokens, shared secrets) are equal, in constant time: both are hashed
 * first, so neither their contents nor their lengths show in the time taken.
 */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}
