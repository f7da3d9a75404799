import { z } from 'zod';

/**
 * Zod's own messages (English, untranslatable) are replaced by our validation keys for every schema
 * that does not name its own, so that every field error reaching a user can be translated.
 */
z.config({
  customError: (issue) => {
    switch (issue.code) {
      case 'invalid_type':
        return issue.input === undefined || issue.input === null ? 'v.required' : 'v.invalid';
      case 'too_small':
        return issue.origin === 'string' && Number(issue.minimum) === 1 ? 'v.required' : 'v.invalid';
      case 'too_big':
        return issue.origin === 'string' ? 'v.tooLong' : 'v.invalid';
      case 'invalid_format':
        return issue.format === 'email' ? 'v.email' : 'v.invalid';
      default:
        return 'v.invalid';
    }
  },
});
