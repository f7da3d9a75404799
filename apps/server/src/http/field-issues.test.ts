import { loginForm } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toFieldIssues } from './endpoints.ts';

const issuesOf = (result: { error?: z.ZodError }) => (result.error ? toFieldIssues(result.error, 'en') : []);

describe('field issues of a refused request', () => {
  it('fill the limit of a too-long text', () => {
    expect(issuesOf(loginForm.safeParse({ name: 'a'.repeat(65), pwd: 'x' }))).toEqual([
      { path: 'name', message: 'At most 64 characters' },
    ]);
  });

  it('fill the parameters a refinement gives (such as the faulty placeholder of an alarm message)', () => {
    const form = z.object({ formatMsg: z.string() }).superRefine((_, ctx) => {
      ctx.addIssue({
        code: 'custom',
        path: ['formatMsg'],
        message: 'v.formatMsg.unknown',
        params: { name: '{devcie}' },
      });
    });
    expect(issuesOf(form.safeParse({ formatMsg: '{devcie}' }))).toEqual([
      { path: 'formatMsg', message: 'Unknown placeholder {devcie}' },
    ]);
  });
});
