import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { pageQuery, pageResult } from '../paging.ts';
import { Permission } from '../permissions.ts';
import { AUTHORIZATION_OBJECTS, fixedAuthorizationForm } from '../validation/lock-task-forms.ts';

const id = z.string().min(1).max(64);

/** Where a fixed authorisation stands now: in force, not begun yet, or past its end. */
export const AUTHORIZATION_STATES = ['active', 'upcoming', 'expired'] as const;
export type AuthorizationState = (typeof AUTHORIZATION_STATES)[number];

/** A fixed authorisation (spec §3) with the names of its object and devices, and where it stands now. */
export const fixedAuthorizationRow = z.object({
  id: z.string(),
  objectType: z.enum(AUTHORIZATION_OBJECTS),
  objectId: z.string(),
  objectName: z.string(),
  forever: z.boolean(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  state: z.enum(AUTHORIZATION_STATES),
  allDevice: z.boolean(),
  devices: z.array(z.object({ id: z.string(), name: z.string() })),
  createdByName: z.string().nullable(),
  updatedAt: z.string(),
});
export type FixedAuthorizationRow = z.infer<typeof fixedAuthorizationRow>;

export const queryFixedAuthorizationPage = defineEndpoint({
  method: 'GET',
  path: '/fixedAuthorization/queryPage',
  access: Permission.FixedAuthorizationRead,
  module: 'tasks',
  summary: 'Fixed authorisations, newest first unless sorted, searchable by object, device and state',
  query: pageQuery.extend({
    objectType: z.enum(AUTHORIZATION_OBJECTS).optional(),
    /** Part of the staff member's or department's name. */
    keyword: z.string().trim().max(64).optional(),
    deviceId: z.string().max(64).optional(),
    state: z.enum(AUTHORIZATION_STATES).optional(),
  }),
  response: pageResult(fixedAuthorizationRow),
});

export const saveFixedAuthorization = defineEndpoint({
  method: 'POST',
  path: '/fixedAuthorization/save',
  access: Permission.FixedAuthorizationCreate,
  module: 'tasks',
  summary: 'Give devices to a staff member or a department, for a time range or forever',
  body: fixedAuthorizationForm,
  response: z.object({ id: z.string() }),
});

export const updateFixedAuthorization = defineEndpoint({
  method: 'POST',
  path: '/fixedAuthorization/update',
  access: Permission.FixedAuthorizationUpdate,
  module: 'tasks',
  summary: 'Change a fixed authorisation',
  body: fixedAuthorizationForm.safeExtend({ id }),
  response: z.null(),
});

export const deleteFixedAuthorization = defineEndpoint({
  method: 'GET',
  path: '/fixedAuthorization/del',
  access: Permission.FixedAuthorizationDelete,
  module: 'tasks',
  summary: 'Withdraw a fixed authorisation',
  query: z.object({ id }),
  response: z.null(),
  mutating: true,
});
