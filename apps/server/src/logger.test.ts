import { describe, expect, it } from 'vitest';
import { maskSecretQuery } from './logger.ts';

describe('request log', () => {
  it('masks the values of secret query parameters', () => {
    expect(maskSecretQuery('/api/staff/verifiyVerificationcode?email=a%40b.cn&verificationCode=K7Q2ZP')).toBe(
      '/api/staff/verifiyVerificationcode?email=a%40b.cn&verificationCode=***',
    );
    expect(maskSecretQuery('/x?VERIFICATIONCODE=AB&token=t1&pwd=p#frag')).toBe(
      '/x?VERIFICATIONCODE=***&token=***&pwd=***#frag',
    );
    expect(maskSecretQuery('/api/staff/sendVerificationcode?email=a%40b.cn')).toBe(
      '/api/staff/sendVerificationcode?email=a%40b.cn',
    );
  });
});
