import type { Db } from '../../db/client.ts';
import type { FileService } from '../../infra/files/file.service.ts';
import type { ParamService } from '../params/index.ts';
import { DepartmentService } from './department.service.ts';
import { GrantService, type HoldDeviceTypes } from './grant.service.ts';
import { RoleService } from './role.service.ts';
import { type SessionRevoker, StaffService } from './staff.service.ts';

/** The services of the organisation: departments, roles, permission grants and staff. */
export interface OrgServices {
  departments: DepartmentService;
  roles: RoleService;
  grants: GrantService;
  staff: StaffService;
}

export function createOrgServices(
  db: Db,
  sessions: SessionRevoker,
  params: ParamService,
  files: FileService,
  holdDeviceTypes: HoldDeviceTypes,
): OrgServices {
  return {
    departments: new DepartmentService(db),
    roles: new RoleService(db),
    grants: new GrantService(db, holdDeviceTypes),
    staff: new StaffService(db, sessions, params, files),
  };
}
