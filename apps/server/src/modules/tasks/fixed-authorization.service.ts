import {
  type FieldIssue,
  type FixedAuthorizationForm,
  type FixedAuthorizationRow,
  type Page,
  type PageQuery,
  ResultCode,
} from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import type { SessionUser } from '../../http/request-context.ts';
import {
  type AuthorizationSearch,
  authorizationExists,
  deleteAuthorization,
  insertAuthorization,
  objectExists,
  queryAuthorizations,
  unknownDevices,
  updateAuthorization,
} from './fixed-authorization.repository.ts';

/**
 * Fixed authorisations (spec §3, /task/fixed-authorize): devices given to a staff member or a department
 * for a time range or forever. Whom they let open what is the decision of open-decision.ts.
 */
export class FixedAuthorizationService {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  query(search: AuthorizationSearch, page: PageQuery): Promise<Page<FixedAuthorizationRow>> {
    return queryAuthorizations(this.db, search, page, this.now());
  }

  create(form: FixedAuthorizationForm, user: SessionUser): Promise<{ id: string }> {
    return this.db.transaction(async (tx) => {
      await this.checkReferences(tx, form);
      return { id: await insertAuthorization(tx, form, user) };
    });
  }

  update({ id, ...form }: FixedAuthorizationForm & { id: string }): Promise<void> {
    return this.db.transaction(async (tx) => {
      if (!(await authorizationExists(tx, id))) throw new AppError(ResultCode.NotFound);
      await this.checkReferences(tx, form);
      await updateAuthorization(tx, id, form);
    });
  }

  async remove(id: string): Promise<void> {
    if (!(await deleteAuthorization(this.db, id))) throw new AppError(ResultCode.NotFound);
  }

  /** The staff member or department and the devices named must exist. */
  private async checkReferences(db: Db, form: FixedAuthorizationForm): Promise<void> {
    const issues: FieldIssue[] = [];
    if (!(await objectExists(db, form))) issues.push({ path: 'objectId', message: 'v.unknownObject' });
    if (!form.allDevice) {
      const unknown = await unknownDevices(db, form.deviceIds);
      form.deviceIds.forEach((deviceId, index) => {
        if (unknown.has(deviceId)) issues.push({ path: `deviceIds.${index}`, message: 'v.unknownDevice' });
      });
    }
    if (issues.length > 0) throw AppError.invalid(issues);
  }
}
