import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { FEATURE_FLAGS } from './feature-flags.ts';
import { param } from './params.schema.ts';

export class ParamService {
  constructor(private readonly db: Db) {}

  /** Creates the parameters that do not exist yet; existing values are never overwritten. */
  async seedDefaults(): Promise<void> {
    await this.db
      .insert(param)
      .values(
        FEATURE_FLAGS.map((f) => ({
          name: f.name,
          valType: f.valType,
          val: f.defVal,
          defVal: f.defVal,
          desc: f.desc,
          group: 'feature',
          editable: true,
        })),
      )
      .onConflictDoNothing();
  }

  async getValues(names: readonly string[]): Promise<Record<string, string>> {
    if (names.length === 0) return {};
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

  featureFlags(): Promise<Record<string, string>> {
    return this.getValues(FEATURE_FLAGS.map((f) => f.name));
  }
}
