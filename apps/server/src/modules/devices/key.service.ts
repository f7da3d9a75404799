import {
  type FieldIssue,
  type KeyForm,
  type KeyRow,
  type Page,
  type PageQuery,
  ResultCode,
} from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../http/app-error.ts';
import { departmentExists, staffExists } from '../org/index.ts';
import {
  deleteKey,
  insertKey,
  type KeySearch,
  keyCodeTaken,
  keyExists,
  queryKeys,
  updateKey,
} from './key.repository.ts';

const codeTaken = (code: string) => new AppError(ResultCode.CodeTaken, { params: { code } });

/** Electronic keys (spec §3 Key): a unique code, an optional holder and department. */
export class KeyService {
  constructor(private readonly db: Db) {}

  query(query: KeySearch & PageQuery): Promise<Page<KeyRow>> {
    return queryKeys(this.db, query, query);
  }

  async create(form: KeyForm): Promise<{ id: string }> {
    await this.checkForm(form);
    return { id: await this.writing(form.code, () => insertKey(this.db, form)) };
  }

  async update(form: KeyForm & { id: string }): Promise<void> {
    if (!(await keyExists(this.db, form.id))) throw new AppError(ResultCode.NotFound);
    await this.checkForm(form, form.id);
    await this.writing(form.code, () => updateKey(this.db, form.id, form));
  }

  async remove(id: string): Promise<void> {
    if (!(await deleteKey(this.db, id))) throw new AppError(ResultCode.NotFound);
  }

  /** The holder and the department must exist when given; the code must be free, ignoring case. */
  private async checkForm(form: KeyForm, id?: string): Promise<void> {
    const issues: FieldIssue[] = [];
    if (form.staffId && !(await staffExists(this.db, form.staffId))) {
      issues.push({ path: 'staffId', message: 'v.invalid' });
    }
    if (form.deptId && !(await departmentExists(this.db, form.deptId))) {
      issues.push({ path: 'deptId', message: 'v.invalid' });
    }
    if (issues.length > 0) throw AppError.invalid(issues);
    if (await keyCodeTaken(this.db, form.code, id)) throw codeTaken(form.code);
  }

  /** A concurrent write of the same code answers CodeTaken rather than failing. */
  private async writing<T>(code: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw codeTaken(code);
      throw error;
    }
  }
}
