import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { Permission } from '../permissions.ts';
import { unitForm } from '../validation/device-forms.ts';

const id = z.string().min(1).max(64);

/** Operation unit (spec §3), with its sub-units. */
export interface UnitNode {
  id: string;
  name: string;
  menuName: string | null;
  parentId: string | null;
  sortIndex: number;
  stationId: string;
  typeId: string | null;
  desc: string | null;
  children: UnitNode[];
}
export const unitNode: z.ZodType<UnitNode> = z.lazy(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    menuName: z.string().nullable(),
    parentId: z.string().nullable(),
    sortIndex: z.number().int(),
    stationId: z.string(),
    typeId: z.string().nullable(),
    desc: z.string().nullable(),
    children: z.array(unitNode),
  }),
);

export const getUnitTree = defineEndpoint({
  method: 'GET',
  path: '/unit/getTree',
  access: 'signedIn',
  module: 'devices',
  summary: 'Operation unit tree (for pages and unit selectors)',
  response: z.array(unitNode),
});

export const saveUnit = defineEndpoint({
  method: 'POST',
  path: '/unit/save',
  access: Permission.UnitCreate,
  module: 'devices',
  summary: 'Create an operation unit',
  body: unitForm,
  response: z.object({ id: z.string() }),
});

export const updateUnit = defineEndpoint({
  method: 'POST',
  path: '/unit/update',
  access: Permission.UnitUpdate,
  module: 'devices',
  summary: 'Update an operation unit',
  body: unitForm.extend({ id }),
  response: z.null(),
});

export const deleteUnit = defineEndpoint({
  method: 'GET',
  path: '/unit/del',
  access: Permission.UnitDelete,
  module: 'devices',
  summary: 'Delete an operation unit without sub-units',
  query: z.object({ id }),
  response: z.null(),
  mutating: true,
});
