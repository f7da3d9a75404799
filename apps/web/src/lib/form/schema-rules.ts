import { issueParams, type Lang, translateValidation } from '@uiot/contracts';
import type { FormRule } from 'antd';
import { useCallback } from 'react';
import type { z } from 'zod';
import { useLang } from '../i18n/use-lang.ts';

type Issue = z.core.$ZodIssue;

/** Turns a zod issue of a shared schema into a translated form message (keys `v.*` of the contracts). */
export function translateIssue(issue: Issue, lang: Lang): string {
  if (issue.message.startsWith('v.')) {
    return translateValidation(issue.message, lang, issueParams(issue));
  }
  switch (issue.code) {
    case 'too_big':
      return translateValidation('v.tooLong', lang, { max: Number(issue.maximum) });
    case 'invalid_type':
      return translateValidation('v.required', lang);
    case 'invalid_format':
      return translateValidation(issue.format === 'email' ? 'v.email' : 'v.invalid', lang);
    default:
      return translateValidation('v.invalid', lang);
  }
}

/** The first issue of `field` when the whole form is checked against `schema`. */
export function fieldIssue(schema: z.ZodType, values: unknown, field: string): Issue | undefined {
  const result = schema.safeParse(values);
  if (result.success) return undefined;
  return result.error.issues.find((issue) => issue.path[0] === field);
}

/**
 * antd form rules that run a shared zod schema (the same the server validates with) and show its issues on
 * the right field: `rules={[rule('email')]}`. Cross-field checks (passwords match) see the whole form.
 */
export function useSchemaRule<S extends z.ZodType>(
  schema: S,
): (field: keyof z.input<S> & string) => FormRule {
  const lang = useLang();
  return useCallback(
    (field) => (form) => ({
      validator: async () => {
        const issue = fieldIssue(schema, form.getFieldsValue(true), field);
        if (issue) throw new Error(translateIssue(issue, lang));
      },
    }),
    [schema, lang],
  );
}
