import {
  type Page,
  type PageQuery,
  type ParamAbilities,
  type ParamAction,
  type ParamForm,
  type ParamListRow,
  type ParamRow,
  Permission,
  ResultCode,
} from '@uiot/contracts';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../http/app-error.ts';
import type { SessionUser } from '../../http/request-context.ts';
import { FEATURE_FLAGS } from './feature-flags.ts';
import {
  allParams,
  deleteParamRow,
  insertParam,
  type ParamSearch,
  paramById,
  paramNameTaken,
  paramValueByName,
  paramValuesOfClass,
  queryParams,
  updateParamRow,
} from './param.repository.ts';
import { param } from './params.schema.ts';
import { BUILT_IN_PARAMS, isBuiltInParam } from './settings.ts';

type ParamState = Pick<ParamRow, 'name' | 'editable'>;

/**
 * Why `action` may not be done to a parameter, or null when the rule allows it: only an editable parameter
 * changes, and a built-in one is never deleted. One rule for the list's `abilities` and the refusals.
 */
export function paramRefusal(current: ParamState, action: ParamAction): ResultCode | null {
  if (action === 'delete' && isBuiltInParam(current.name)) return ResultCode.ParamBuiltIn;
  return current.editable ? null : ResultCode.ParamNotEditable;
}

function refuseParamAction(current: ParamState, action: ParamAction): void {
  const refusal = paramRefusal(current, action);
  if (refusal !== null) throw new AppError(refusal);
}

const paramAbilitiesOf = (current: ParamState): ParamAbilities => ({
  update: paramRefusal(current, 'update') === null,
  delete: paramRefusal(current, 'delete') === null,
});

const nameTaken = (name: string) => new AppError(ResultCode.NameTaken, { params: { name } });

const readsEveryParam = (user: SessionUser) => user.permissions.has(Permission.ParamRead);

/**
 * Whether the database's change notices are heard now (the session service hears them): while not, the
 * feature flags are not kept. A change of a flag is told by `flagsChanged`.
 */
export interface ParamChanges {
  readonly followsChanges: boolean;
}

/** Longest the feature flags are served from memory before they are read again, notices or not. */
const FLAGS_TTL_MS = 60_000;
const FLAG_NAMES: ReadonlySet<string> = new Set(FEATURE_FLAGS.map((f) => f.name));

export class ParamService {
  /**
   * The feature flags as last read, while changes are followed: every request that decides menus or gates
   * an endpoint reads them, and a change of one is announced (migration 0014_feature_flag_changes).
   */
  private flags: { values: Record<string, string>; readAt: number } | null = null;
  /** Bumped by every change notice: a read that began before one keeps nothing. */
  private flagGeneration = 0;
  private changes: ParamChanges | null = null;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Keeps the feature flags in memory from now on, while `changes` follows the notices. */
  followChanges(changes: ParamChanges): () => void {
    this.changes = changes;
    return () => {
      this.changes = null;
      this.flags = null;
    };
  }

  /** A feature flag may have changed (a change notice of scope `all`): the kept flags are dropped. */
  flagsChanged(): void {
    this.flagGeneration++;
    this.flags = null;
  }

  /** Creates the built-in parameters that do not exist yet; existing values are never overwritten. */
  async seedDefaults(): Promise<void> {
    await this.db
      .insert(param)
      .values(
        BUILT_IN_PARAMS.map((p) => ({
          name: p.name,
          valType: p.valType,
          val: p.defVal,
          defVal: p.defVal,
          desc: p.desc,
          group: p.group,
          cls: p.cls,
          editable: true,
          isPublic: p.isPublic,
        })),
      )
      // Values are never overwritten; the public flag of a built-in parameter is the code's.
      .onConflictDoUpdate({ target: param.name, set: { isPublic: sql`excluded.is_public` } });
  }

  async getValues(names: readonly string[]): Promise<Record<string, string>> {
    if (names.length === 0) return {};
    if (names.every((name) => FLAG_NAMES.has(name))) {
      const flags = await this.featureFlags();
      return Object.fromEntries(names.filter((name) => name in flags).map((name) => [name, flags[name]!]));
    }
    return this.readValues(names);
  }

  private async readValues(names: readonly string[]): Promise<Record<string, string>> {
    const rows = await this.db
      .select({ name: param.name, val: param.val, defVal: param.defVal })
      .from(param)
      .where(inArray(param.name, [...names]));
    return Object.fromEntries(rows.map((r) => [r.name, r.val ?? r.defVal ?? '']));
  }

  async setValue(name: string, val: string): Promise<void> {
    await this.db.update(param).set({ val, updatedAt: new Date() }).where(eq(param.name, name));
  }

  async getBoolean(name: string): Promise<boolean> {
    const values = await this.getValues([name]);
    return values[name] === 'true';
  }

  /** Every feature flag's value: from memory while changes are followed (see `flags`). */
  async featureFlags(): Promise<Record<string, string>> {
    const following = this.changes?.followsChanges === true;
    if (following && this.flags && this.now() - this.flags.readAt < FLAGS_TTL_MS)
      return { ...this.flags.values };
    const generation = this.flagGeneration;
    const readAt = this.now();
    const values = await this.readValues([...FLAG_NAMES]);
    if (following && this.changes?.followsChanges && generation === this.flagGeneration) {
      this.flags = { values, readAt };
    }
    return { ...values };
  }

  /** A page of parameters, each row with what may be done with it. */
  async query(search: ParamSearch & PageQuery): Promise<Page<ParamListRow>> {
    const page = await queryParams(this.db, search, search);
    return { ...page, rows: page.rows.map((row) => ({ ...row, abilities: paramAbilitiesOf(row) })) };
  }

  all(): Promise<ParamRow[]> {
    return allParams(this.db);
  }

  async get(id: string): Promise<ParamRow> {
    const row = await paramById(this.db, id);
    if (!row) throw new AppError(ResultCode.NotFound);
    return row;
  }

  /**
   * The value of a parameter as `user` may read it (finding 10): any parameter with param.read, a public one
   * without. Without param.read any other name is refused alike, whether or not it exists.
   */
  async readableValue(user: SessionUser, name: string): Promise<string | null> {
    const found = await paramValueByName(this.db, name);
    if (readsEveryParam(user)) return found?.value ?? null;
    if (!found?.isPublic) throw new AppError(ResultCode.Forbidden);
    return found.value;
  }

  /** The values of one class `user` may read: all with param.read, the public ones without. */
  readableValuesOfClass(user: SessionUser, cls: string): Promise<Record<string, string>> {
    return paramValuesOfClass(this.db, cls, !readsEveryParam(user));
  }

  create(form: ParamForm): Promise<{ id: string }> {
    return this.writing(form.name, async () => {
      if (await paramNameTaken(this.db, form.name)) throw nameTaken(form.name);
      return { id: await insertParam(this.db, form) };
    });
  }

  /** Only an editable parameter changes; a built-in one keeps its name, type and editability. */
  update(form: ParamForm & { id: string }): Promise<void> {
    return this.writing(form.name, () =>
      this.db.transaction(async (tx) => {
        const current = await paramById(tx, form.id);
        if (!current) throw new AppError(ResultCode.NotFound);
        refuseParamAction(current, 'update');
        if (isBuiltInParam(current.name)) {
          const fixed = (['name', 'valType', 'editable', 'isPublic'] as const).filter(
            (f) => form[f] !== undefined && form[f] !== current[f],
          );
          if (fixed.length > 0) throw AppError.invalid(fixed.map((path) => ({ path, message: 'v.invalid' })));
        }
        if (await paramNameTaken(tx, form.name, form.id)) throw nameTaken(form.name);
        await updateParamRow(tx, form.id, form);
      }),
    );
  }

  /** With an id: update; without: create, which also needs param.create. */
  async saveOrUpdate(
    user: SessionUser,
    form: ParamForm & { id?: string | undefined },
  ): Promise<{ id: string }> {
    const { id } = form;
    if (id) {
      await this.update({ ...form, id });
      return { id };
    }
    if (!user.permissions.has(Permission.ParamCreate)) throw new AppError(ResultCode.Forbidden);
    return this.create(form);
  }

  async remove(id: string): Promise<void> {
    const current = await paramById(this.db, id);
    if (!current) throw new AppError(ResultCode.NotFound);
    refuseParamAction(current, 'delete');
    await deleteParamRow(this.db, id);
  }

  /** A concurrent write of the same name answers 1021 rather than failing. */
  private async writing<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(name);
      throw error;
    }
  }
}
