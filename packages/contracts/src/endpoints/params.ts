import { z } from 'zod';
import { paramAbilities } from '../abilities.ts';
import { defineEndpoint } from '../endpoint.ts';
import { pageQuery, pageResult } from '../paging.ts';
import { Permission } from '../permissions.ts';
import { PARAM_VAL_TYPES, paramForm } from '../validation/org-forms.ts';

export const paramRow = z.object({
  id: z.string(),
  name: z.string(),
  valType: z.enum(PARAM_VAL_TYPES),
  val: z.string().nullable(),
  cls: z.string().nullable(),
  defVal: z.string().nullable(),
  desc: z.string().nullable(),
  editable: z.boolean(),
  group: z.string().nullable(),
  /** Readable by every signed-in user without param.read (fixed for the built-in parameters). */
  isPublic: z.boolean(),
  /** Feature flags and settings the system relies on: they cannot be deleted. */
  builtIn: z.boolean(),
  updatedAt: z.string(),
});
export type ParamRow = z.infer<typeof paramRow>;

/** A row of the parameter list: the parameter and what the signed-in user may do with it. */
export const paramListRow = paramRow.extend({ abilities: paramAbilities });
export type ParamListRow = z.infer<typeof paramListRow>;

const id = z.string().min(1).max(64);

export const deleteParam = defineEndpoint({
  method: 'GET',
  path: '/params/del',
  access: Permission.ParamDelete,
  module: 'params',
  summary: 'Delete an editable parameter that is not a built-in one',
  query: z.object({ id }),
  response: z.null(),
  mutating: true,
});

export const getParamById = defineEndpoint({
  method: 'GET',
  path: '/params/getById',
  access: Permission.ParamRead,
  module: 'params',
  summary: 'One parameter',
  query: z.object({ id }),
  response: paramRow,
});

export const getParamByName = defineEndpoint({
  method: 'GET',
  path: '/params/getByName',
  access: 'signedIn',
  module: 'params',
  summary: 'Value of a parameter by name: a public one for every signed-in user, any one with param.read',
  query: z.object({ name: z.string().min(1).max(64) }),
  response: z.string().nullable(),
});

export const getAllParams = defineEndpoint({
  method: 'GET',
  path: '/params/getAll',
  access: Permission.ParamRead,
  module: 'params',
  summary: 'Every parameter',
  response: z.array(paramRow),
});

export const getParamMap = defineEndpoint({
  method: 'GET',
  path: '/params/getMap',
  access: 'signedIn',
  module: 'params',
  summary: 'Values of the parameters of one class, by name: the public ones, or all with param.read',
  query: z.object({ clzName: z.string().min(1).max(64) }),
  response: z.record(z.string(), z.string()),
});

/** A public built-in setting, by a call of its own (spec §7). */
const namedValue = (path: string, summary: string) =>
  defineEndpoint({
    method: 'GET',
    path,
    access: 'signedIn',
    module: 'params',
    summary,
    response: z.string().nullable(),
  });

export const getADCode = namedValue('/params/getADCode', 'Administrative division code of the installation');
export const getLngLat = namedValue('/params/getLngLat', 'Map centre as "lng,lat"');
export const getMarkerSearchDistance = namedValue(
  '/params/getMarkerSearchDistance',
  'Search radius of the map markers, in metres',
);
export const getMobileAppRegist = namedValue(
  '/params/getMobileAppRegist',
  'Whether mobile apps must be registered',
);
export const getTaskNeedAudit = namedValue('/params/getTaskNeedAudit', 'Whether lock tasks need an audit');

export const queryParamPageByName = defineEndpoint({
  method: 'GET',
  path: '/params/queryPageByName',
  access: Permission.ParamRead,
  module: 'params',
  summary: 'Parameters whose name contains the text, paged',
  query: pageQuery.extend({
    name: z.string().trim().max(64).optional(),
    group: z.string().trim().max(64).optional(),
  }),
  response: pageResult(paramListRow),
});

export const saveParam = defineEndpoint({
  method: 'POST',
  path: '/params/save',
  access: Permission.ParamCreate,
  module: 'params',
  summary: 'Create a parameter',
  body: paramForm,
  response: z.object({ id: z.string() }),
});

export const updateParam = defineEndpoint({
  method: 'POST',
  path: '/params/update',
  access: Permission.ParamUpdate,
  module: 'params',
  summary: 'Update an editable parameter',
  body: paramForm.safeExtend({ id }),
  response: z.null(),
});

export const saveOrUpdateParam = defineEndpoint({
  method: 'POST',
  path: '/params/saveOrUpdate',
  access: Permission.ParamUpdate,
  module: 'params',
  summary: 'Create (without id; also needs param.create) or update (with id) a parameter',
  body: paramForm.safeExtend({ id: id.optional() }),
  response: z.object({ id: z.string() }),
});
