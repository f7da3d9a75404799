export { ensureBuiltInAccounts } from './admin-account.ts';
export { departmentExists, departmentTree } from './department.repository.ts';
export { checkAccountWithin } from './grant-checks.ts';
export { orgRoutes } from './org.routes.ts';
export { createOrgServices, type OrgServices } from './org.services.ts';
export { moveLegacySignatures } from './signature.ts';
export { staffExists } from './staff.repository.ts';
export {
  effectivePermissionsSql,
  isAdminSql,
  loadStaffAccess,
  roleNamesSql,
} from './staff-access.repository.ts';
