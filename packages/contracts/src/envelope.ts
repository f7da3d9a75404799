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
export type FieldIssue = z.infer<typeof fieldIssue>;
