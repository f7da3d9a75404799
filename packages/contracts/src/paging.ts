import { z } from 'zod';
import { typeError } from './validation/zod-messages.ts';

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
export const PAGE_SIZE_CHOICES = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100] as const;

/** An empty query value (`pageIndex=`) means "not given". */
const blankAsMissing = (value: unknown) => (value === '' ? undefined : value);

/** Paging parameters of every table query (spec §3, §7); `pageIndex` is 1-based. */
export const pageQuery = z.object({
  sort: z.string().max(64, { error: 'v.tooLong' }).optional(),
  ascending: z
    .union([z.boolean(), z.enum(['true', 'false'])], { error: 'v.invalid' })
    .transform((v) => v === true || v === 'true')
    .optional(),
  pageIndex: z.preprocess(
    blankAsMissing,
    z.coerce
      .number({ error: typeError('v.number') })
      .int()
      .min(1)
      .default(1),
  ),
  pageSize: z.preprocess(
    blankAsMissing,
    z.coerce.number({ error: 'v.pageSize' }).int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  ),
});
export type PageQuery = z.infer<typeof pageQuery>;

export function pageResult<T extends z.ZodType>(row: T) {
  return z.object({ rows: z.array(row), total: z.number().int() });
}

export interface Page<T> {
  rows: T[];
  total: number;
}
