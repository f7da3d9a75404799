import { z } from 'zod';
import { nameText, optionalText } from './org-forms.ts';

/** Operation unit (spec §3); the sort index is a whole number (spec §5 "unit sort index numeric"). */
export const unitForm = z.object({
  name: nameText(64),
  menuName: optionalText(64),
  parentId: z.string().max(64).nullable().optional(),
  sortIndex: z.coerce
    .number({ error: 'v.integer' })
    .int({ error: 'v.integer' })
    .min(0, { error: 'v.integer' })
    .default(0),
  typeId: optionalText(64),
  desc: optionalText(255),
});
export type UnitForm = z.infer<typeof unitForm>;
