import { z } from 'zod';

/** Zod's origins of a numeric bound (`.min()`, `.max()`, the safe range of `.int()`). */
const NUMERIC_ORIGINS = new Set(['number', 'int', 'bigint']);

const absent = (input: unknown) => input === undefined || input === null;

/**
 * Zod's own messages (English, untranslatable) are replaced by our validation keys for every schema
 * that does not name its own, so that every field error reaching a user can be translated. A bound on a
 * number names the bound (`v.min`, `v.max`, with the value from `issueParams`); a value outside a list of
 * choices is invalid when given and required only when missing.
 */
z.config({
  customError: (issue) => {
    switch (issue.code) {
      case 'invalid_type':
        if (absent(issue.input)) return 'v.required';
        return issue.expected === 'int' ? 'v.wholeNumber' : 'v.invalid';
      case 'too_small':
        if (NUMERIC_ORIGINS.has(issue.origin)) return issue.inclusive === false ? 'v.moreThan' : 'v.min';
        return issue.origin === 'string' && Number(issue.minimum) === 1 ? 'v.required' : 'v.invalid';
      case 'too_big':
        if (NUMERIC_ORIGINS.has(issue.origin)) return issue.inclusive === false ? 'v.lessThan' : 'v.max';
        return issue.origin === 'string' ? 'v.tooLong' : 'v.invalid';
      case 'invalid_value':
      case 'invalid_union':
        return absent(issue.input) ? 'v.required' : 'v.invalid';
      case 'invalid_format':
        return issue.format === 'email' ? 'v.email' : 'v.invalid';
      default:
        return 'v.invalid';
    }
  },
});

/**
 * The message of a schema's type check only (`z.coerce.number({ error: typeError('v.integer') })`): its
 * bounds fall through to the keys above, which name them, rather than all saying "enter a number".
 */
export const typeError =
  (key: string) =>
  (issue: { code: string; expected?: unknown }): string | undefined =>
    issue.code === 'invalid_type' && issue.expected !== 'int' ? key : undefined;
