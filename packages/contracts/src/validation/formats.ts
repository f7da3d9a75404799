import { z } from 'zod';

/** Mainland China mobile number (spec §5 change-info form). */
export const MAINLAND_MOBILE = /^1[3-9]\d{9}$/;

export const requiredText = (key: 'v.required' | 'v.username' | 'v.password' = 'v.required', max = 64) =>
  z.string({ error: key }).trim().min(1, { error: key }).max(max, { error: 'v.tooLong' });

export const email = z
  .string({ error: 'v.required' })
  .trim()
  .min(1, { error: 'v.required' })
  .max(128, { error: 'v.tooLong' })
  .pipe(z.email({ error: 'v.email' }));

export const optionalMobile = z
  .string()
  .trim()
  .refine((v) => v === '' || MAINLAND_MOBILE.test(v), { error: 'v.mobile' })
  .optional();
