import { z } from 'zod';

/** Every API response: `{ success, data, code, message }` (ARCHITECTURE §3). */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.boolean(), data, code: z.number().int(), message: z.string() });
}

export interface Envelope<T> {
  success: boolean;
  data: T;
  code: number;
  message: string;
}

/** One field that failed validation: its path and the translated reason. */
export const fieldIssue = z.object({ path: z.string(), message: z.string() });
/**
 * A field issue as the server raises it: the message key and the values of its `{name}` placeholders (a
 * limit, say), which the translation fills in; only path and message leave the server.
 */
export type FieldIssue = z.infer<typeof fieldIssue> & { params?: Record<string, string | number> };
