import { describe, expect, it } from 'vitest';
import { checkThrottle, EMPTY_THROTTLE, recordFailure } from '../auth/login-throttle.ts';
import {
  CODE_ALPHABET,
  CODE_MAX_ATTEMPTS,
  CODE_TTL_MS,
  generateCode,
  hashCode,
  judgeCode,
  normaliseCode,
  RESEND_INTERVAL_MS,
  resendWaitSeconds,
  SEND_CODE_ADDRESS_POLICY,
  type StoredCode,
} from './verification-code.ts';

const T0 = new Date('2026-03-01T08:00:00Z').getTime();
const at = (ms: number) => new Date(T0 + ms);
const EMAIL = 'Applicant@Example.com';

function stored(code: string, overrides: Partial<StoredCode> = {}): StoredCode {
  return {
    codeHash: hashCode(EMAIL, code),
    expiresAt: at(CODE_TTL_MS),
    attempts: 0,
    usedAt: null,
    ...overrides,
  };
}

describe('verification code generation', () => {
  it('makes 6 characters of digits and upper-case letters', () => {
    expect(CODE_ALPHABET).toBe('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ');
    for (let i = 0; i < 200; i++) expect(generateCode()).toMatch(/^[0-9A-Z]{6}$/);
  });

  it('draws every character from the random source', () => {
    const picks: number[] = [];
    const code = generateCode((max) => {
      picks.push(max);
      return (picks.length * 7) % max;
    });
    expect(picks).toEqual(Array(6).fill(36));
    expect(code).toBe('7ELSZ6');
  });

  it('varies from code to code (crypto random)', () => {
    const codes = new Set(Array.from({ length: 500 }, () => generateCode()));
    expect(codes.size).toBeGreaterThan(495);
    const characters = new Set([...codes].join(''));
    expect(characters.size).toBe(36);
  });
});

describe('verification code hash', () => {
  it('is bound to the address and ignores case and blanks', () => {
    expect(hashCode(EMAIL, 'AB12CD')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashCode(' applicant@example.COM ', 'ab12cd')).toBe(hashCode(EMAIL, 'AB12CD'));
    expect(hashCode('other@example.com', 'AB12CD')).not.toBe(hashCode(EMAIL, 'AB12CD'));
    expect(hashCode(EMAIL, 'AB12CE')).not.toBe(hashCode(EMAIL, 'AB12CD'));
    expect(normaliseCode(' ab 12cd ')).toBe('AB12CD');
  });
});

describe('verification code judgement', () => {
  it('accepts the code, typed in any case, until it expires after 10 minutes', () => {
    expect(judgeCode(stored('AB12CD'), EMAIL, 'AB12CD', at(0))).toBe('valid');
    expect(judgeCode(stored('AB12CD'), EMAIL, 'ab12cd', at(CODE_TTL_MS - 1))).toBe('valid');
    expect(judgeCode(stored('AB12CD'), EMAIL, 'AB12CD', at(CODE_TTL_MS))).toBe('void');
    expect(CODE_TTL_MS).toBe(600_000);
  });

  it('calls another code wrong, and a code of another address wrong', () => {
    expect(judgeCode(stored('AB12CD'), EMAIL, 'AB12CE', at(0))).toBe('wrong');
    expect(judgeCode(stored('AB12CD'), 'other@example.com', 'AB12CD', at(0))).toBe('wrong');
    expect(judgeCode(stored('AB12CD'), EMAIL, '', at(0))).toBe('wrong');
  });

  it('voids the code after 5 wrong attempts, and not before', () => {
    expect(CODE_MAX_ATTEMPTS).toBe(5);
    expect(judgeCode(stored('AB12CD', { attempts: 4 }), EMAIL, 'AB12CD', at(0))).toBe('valid');
    expect(judgeCode(stored('AB12CD', { attempts: 5 }), EMAIL, 'AB12CD', at(0))).toBe('void');
  });

  it('voids a used code, and answers void when none was sent', () => {
    expect(judgeCode(stored('AB12CD', { usedAt: at(0) }), EMAIL, 'AB12CD', at(1))).toBe('void');
    expect(judgeCode(null, EMAIL, 'AB12CD', at(0))).toBe('void');
  });
});

describe('resending', () => {
  it('waits 300 s after the last code to an address', () => {
    expect(RESEND_INTERVAL_MS).toBe(300_000);
    expect(resendWaitSeconds(null, at(0))).toBe(0);
    expect(resendWaitSeconds(at(0), at(0))).toBe(300);
    expect(resendWaitSeconds(at(0), at(1))).toBe(300);
    expect(resendWaitSeconds(at(0), at(299_001))).toBe(1);
    expect(resendWaitSeconds(at(0), at(300_000))).toBe(0);
  });

  it('allows 10 codes from one client address, then an hour after the last one', () => {
    let state = EMPTY_THROTTLE;
    for (let i = 0; i < 10; i++) {
      expect(checkThrottle(state, at(i * 60_000), SEND_CODE_ADDRESS_POLICY), `send ${i + 1}`).toEqual({
        allowed: true,
      });
      state = recordFailure(state, at(i * 60_000), SEND_CODE_ADDRESS_POLICY);
    }
    const last = 9 * 60_000;
    expect(checkThrottle(state, at(last + 1_000), SEND_CODE_ADDRESS_POLICY)).toEqual({
      allowed: false,
      retryAfterMs: 3_600_000 - 1_000,
    });
    expect(checkThrottle(state, at(last + 3_600_000), SEND_CODE_ADDRESS_POLICY)).toEqual({ allowed: true });
    expect(state.lockedUntil).toBeNull();
  });
});
