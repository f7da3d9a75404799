import { defineModule } from '../../module.ts';
import { orgRoutes } from './org.routes.ts';
import { createOrgServices } from './org.services.ts';

export { ensureBuiltInAccounts } from './admin-account.ts';
export { departmentExists, departmentTree } from './department.repository.ts';
export { checkAccountWithin } from './grant-checks.ts';
export { orgRoutes } from './org.routes.ts';
export { createOrgServices, type OrgServices } from './org.services.ts';
export { moveLegacySignatures } from './signature.ts';
export {
  existingOrgTargets,
  type StaffContact,
  staffContacts,
  staffExists,
} from './staff.repository.ts';
export {
  effectivePermissionsSql,
  isAdminSql,
  loadStaffAccess,
  roleNamesSql,
} from './staff-access.repository.ts';

/** Departments, stations, staff, roles and grants. */
export const orgModule = defineModule({
  name: 'org',
  needs: ['sessions', 'params', 'files', 'holdDeviceTypes'],
  build: ({ db }, { sessions, params, files, holdDeviceTypes }) => ({
    org: createOrgServices(db, sessions, params, files, holdDeviceTypes),
  }),
  routes: (services) => orgRoutes(services),
});
