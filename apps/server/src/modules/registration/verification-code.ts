import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { VERIFICATION_CODE_LENGTH, VERIFICATION_RESEND_SECONDS } from '@uiot/contracts';
import type { ThrottlePolicy } from '../auth/index.ts';

/**
 * The rules of self-registration codes (spec §4, §9), pure: a 6-character code of digits and upper-case
 * letters, kept only as a hash, valid for 10 minutes, void after 5 wrong attempts, used once, and a new
 * one for the same address at most every 300 seconds.
 */
export const CODE_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;
export const RESEND_INTERVAL_MS = VERIFICATION_RESEND_SECONDS * 1000;

/** A new code from the crypto random source (`pick` is for tests only). */
export function generateCode(pick: (max: number) => number = randomInt): string {
  let code = '';
  for (let i = 0; i < VERIFICATION_CODE_LENGTH; i++) code += CODE_ALPHABET[pick(CODE_ALPHABET.length)];
  return code;
}

/** Addresses compare without case or surrounding blanks. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** What the user typed, as the code would have been generated (blanks dropped, upper case). */
export function normaliseCode(code: string): string {
  return code.replace(/\s+/g, '').toUpperCase();
}

/** The stored form of a code: bound to its address, so one hash never fits another address. */
export function hashCode(email: string, code: string): string {
  return createHash('sha256')
    .update(`${normaliseEmail(email)}\n${normaliseCode(code)}`)
    .digest('hex');
}

export interface StoredCode {
  codeHash: string;
  expiresAt: Date;
  attempts: number;
  usedAt: Date | null;
}

/**
 * `valid`: the code fits; `wrong`: it does not (counts as an attempt); `void`: no usable code — none sent,
 * used, expired or worn out by wrong attempts — whatever was typed.
 */
export type CodeVerdict = 'valid' | 'wrong' | 'void';

export function judgeCode(stored: StoredCode | null, email: string, typed: string, now: Date): CodeVerdict {
  if (!stored || stored.usedAt !== null) return 'void';
  if (stored.expiresAt.getTime() <= now.getTime()) return 'void';
  if (stored.attempts >= CODE_MAX_ATTEMPTS) return 'void';
  const typedHash = Buffer.from(hashCode(email, typed), 'hex');
  const storedHash = Buffer.from(stored.codeHash, 'hex');
  return typedHash.length === storedHash.length && timingSafeEqual(typedHash, storedHash) ? 'valid' : 'wrong';
}

/** Seconds to wait before another code may be sent to an address last sent one at `sentAt`; 0 if none. */
export function resendWaitSeconds(sentAt: Date | null, now: Date): number {
  if (!sentAt) return 0;
  const readyAt = sentAt.getTime() + RESEND_INTERVAL_MS;
  return Math.max(0, Math.ceil((readyAt - now.getTime()) / 1000));
}

/**
 * Codes sent from one client address (the login throttle's rule, counting sends): 10 sends, then the
 * address waits an hour after its last send.
 */
export const SEND_CODE_ADDRESS_POLICY: ThrottlePolicy = {
  freeFailures: 10,
  baseDelayMs: 3_600_000,
  maxDelayMs: 3_600_000,
  lockAfter: Number.MAX_SAFE_INTEGER,
  lockMs: 0,
  windowMs: 3_600_000,
};
