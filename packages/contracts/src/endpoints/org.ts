import { z } from 'zod';
import { roleAbilities } from '../abilities.ts';
import { anyOf, defineEndpoint } from '../endpoint.ts';
import { pageQuery, pageResult } from '../paging.ts';
import { GRANT_SUBJECTS, Permission } from '../permissions.ts';
import { DEPT_TYPES, departmentForm, ROLE_TYPES, roleForm } from '../validation/org-forms.ts';

const id = z.string().min(1).max(64);
const idQuery = z.object({ id });

export interface DepartmentNode {
  id: string;
  name: string;
  code: string | null;
  deptType: (typeof DEPT_TYPES)[number];
  description: string | null;
  idxNo: number;
  parentId: string | null;
  staffCount: number;
  children: DepartmentNode[];
}
export const departmentNode: z.ZodType<DepartmentNode> = z.lazy(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    code: z.string().nullable(),
    deptType: z.enum(DEPT_TYPES),
    description: z.string().nullable(),
    idxNo: z.number().int(),
    parentId: z.string().nullable(),
    staffCount: z.number().int(),
    children: z.array(departmentNode),
  }),
);

export const getDepartmentTree = defineEndpoint({
  method: 'GET',
  path: '/department/getTree',
  // The pages that show or choose a department: departments, staff (with its department grants), roles,
  // the key ledger, the device forms, the recipients of a warn rule, a fixed authorisation's object and a
  // lock task's operating and audit departments.
  access: anyOf(
    Permission.DepartmentRead,
    Permission.StaffRead,
    Permission.RoleRead,
    Permission.KeyRead,
    Permission.DeviceCreate,
    Permission.DeviceUpdate,
    Permission.WarnRuleCreate,
    Permission.WarnRuleUpdate,
    Permission.FixedAuthorizationCreate,
    Permission.FixedAuthorizationUpdate,
    Permission.LockTaskCreate,
    Permission.LockTaskUpdate,
  ),
  module: 'org',
  summary: 'Department tree (for pages and department selectors)',
  response: z.array(departmentNode),
});

export const saveDepartment = defineEndpoint({
  method: 'POST',
  path: '/department/save',
  access: Permission.DepartmentCreate,
  module: 'org',
  summary: 'Create a department',
  body: departmentForm,
  response: z.object({ id: z.string() }),
});

export const updateDepartment = defineEndpoint({
  method: 'POST',
  path: '/department/update',
  access: Permission.DepartmentUpdate,
  module: 'org',
  summary: 'Update a department',
  body: departmentForm.extend({ id }),
  response: z.null(),
});

export const deleteDepartment = defineEndpoint({
  method: 'GET',
  path: '/department/del',
  access: Permission.DepartmentDelete,
  module: 'org',
  summary: 'Delete a department without sub-departments or staff',
  query: idQuery,
  response: z.null(),
  mutating: true,
});

export const roleRow = z.object({
  id: z.string(),
  name: z.string(),
  roleType: z.enum(ROLE_TYPES).nullable(),
  description: z.string().nullable(),
  deptId: z.string().nullable(),
  deptName: z.string().nullable(),
  staffCount: z.number().int(),
  builtIn: z.boolean(),
  createdAt: z.string(),
});
export type RoleRow = z.infer<typeof roleRow>;

/** A row of the role list: the role and what the signed-in user may do with it. */
export const roleListRow = roleRow.extend({ abilities: roleAbilities });
export type RoleListRow = z.infer<typeof roleListRow>;

export const queryRolePage = defineEndpoint({
  method: 'GET',
  path: '/role/queryPage',
  access: Permission.RoleRead,
  module: 'org',
  summary: 'Roles, paged, searchable by name and type',
  query: pageQuery.extend({
    name: z.string().trim().max(64).optional(),
    roleType: z.enum(ROLE_TYPES).optional(),
  }),
  response: pageResult(roleListRow),
});

export const getAllRoles = defineEndpoint({
  method: 'GET',
  path: '/role/getAll',
  // The role selector of staff, and the recipients of a warn rule.
  access: anyOf(Permission.StaffAssignRole, Permission.WarnRuleCreate, Permission.WarnRuleUpdate),
  module: 'org',
  summary: 'Every role (id and name), for the role selector of staff; whether the caller may give or take it',
  response: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      roleType: z.enum(ROLE_TYPES).nullable(),
      /** The caller holds every key of the role, so may give it to or take it from a staff member. */
      assignable: z.boolean(),
    }),
  ),
});

export const saveRole = defineEndpoint({
  method: 'POST',
  path: '/role/save',
  access: Permission.RoleCreate,
  module: 'org',
  summary: 'Create a role',
  body: roleForm,
  response: z.object({ id: z.string() }),
});

export const updateRole = defineEndpoint({
  method: 'POST',
  path: '/role/update',
  access: Permission.RoleUpdate,
  module: 'org',
  summary: 'Update a role',
  body: roleForm.extend({ id }),
  response: z.null(),
});

export const deleteRole = defineEndpoint({
  method: 'GET',
  path: '/role/del',
  access: Permission.RoleDelete,
  module: 'org',
  summary: 'Delete a role (not the built-in admin role)',
  query: idQuery,
  response: z.null(),
  mutating: true,
});

const grantSubject = z.object({ subjectType: z.enum(GRANT_SUBJECTS), subjectId: id });

const keySet = z.object({
  keys: z.array(z.string()),
  /** Every key, present and future (role `admin` and its holders). */
  all: z.boolean(),
});

export const getGrants = defineEndpoint({
  method: 'GET',
  path: '/permission/getGrants',
  access: Permission.RoleGrant,
  module: 'org',
  summary:
    'Permission keys granted to a role, staff member or department, and those the caller may give or take (its own)',
  query: grantSubject,
  response: keySet.extend({ grantable: keySet }),
});

export const saveGrants = defineEndpoint({
  method: 'POST',
  path: '/permission/saveGrants',
  access: Permission.RoleGrant,
  module: 'org',
  summary:
    'Replace the permission keys granted to a role, staff member or department; keys the caller does not hold stay as they were, and adding one is refused (1025)',
  body: grantSubject.extend({ keys: z.array(z.string().max(128)).max(1000) }),
  response: z.null(),
});
