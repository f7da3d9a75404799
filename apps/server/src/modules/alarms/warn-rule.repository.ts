import type { Page, PageQuery, RuleItemForm, WarnRuleForm, WarnRuleRow } from '@uiot/contracts';
import { and, asc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { containsText, paged } from '../../db/paging.ts';
import { deviceType } from '../devices/devices.schema.ts';
import { department, role, staff } from '../org/org.schema.ts';
import { type WarnRuleItemRecord, warnRule, warnRuleItem, warnRuleRecipient } from './alarms.schema.ts';

export interface WarnRuleSearch {
  name?: string | undefined;
  deviceTypeId?: string | undefined;
}

const ruleColumns = {
  id: warnRule.id,
  deviceTypeId: warnRule.deviceTypeId,
  deviceTypeName: deviceType.name,
  name: warnRule.name,
  formatMsg: warnRule.formatMsg,
  ruleType: warnRule.ruleType,
  logicType: warnRule.logicType,
  delayInterval: warnRule.delayInterval,
  resend: warnRule.resend,
  resendInterval: warnRule.resendInterval,
  smsNotice: warnRule.smsNotice,
  msgNotice: warnRule.msgNotice,
  emailNotice: warnRule.emailNotice,
  severity: warnRule.severity,
  clearMode: warnRule.clearMode,
  clearLogicType: warnRule.clearLogicType,
  enabled: warnRule.enabled,
  desc: warnRule.description,
  updatedAt: warnRule.updatedAt,
};

const selectRules = (db: Db, where: SQL | undefined) =>
  db
    .select(ruleColumns)
    .from(warnRule)
    .innerJoin(deviceType, eq(deviceType.id, warnRule.deviceTypeId))
    .where(where)
    .$dynamic();

type RuleRecord = Awaited<ReturnType<typeof selectRules>>[number];

const sortable = {
  name: warnRule.name,
  deviceTypeName: deviceType.name,
  ruleType: warnRule.ruleType,
  severity: warnRule.severity,
  updatedAt: warnRule.updatedAt,
};

/** A stored rule item as the forms and the evaluator read it. */
export const ruleItemOf = (i: WarnRuleItemRecord): RuleItemForm => ({
  propCode: i.propCode,
  propName: i.propName,
  propOrigin: i.propOrigin,
  propVal: i.propVal,
  valType: i.valType,
  conditionType: i.conditionType,
});

/** The items, clear items and recipients (with their names) of the rules, added to each. */
async function withDetails(db: Db, rules: RuleRecord[]): Promise<WarnRuleRow[]> {
  if (rules.length === 0) return [];
  const ids = rules.map((r) => r.id);
  const items = await db
    .select()
    .from(warnRuleItem)
    .where(inArray(warnRuleItem.ruleId, ids))
    .orderBy(asc(warnRuleItem.ruleId), asc(warnRuleItem.role), asc(warnRuleItem.sortIndex));
  const recipients = await db
    .select({
      ruleId: warnRuleRecipient.ruleId,
      kind: warnRuleRecipient.kind,
      id: warnRuleRecipient.targetId,
      name: sql<string>`coalesce(${staff.name}, ${role.name}, ${department.name}, ${warnRuleRecipient.targetId})`,
    })
    .from(warnRuleRecipient)
    .leftJoin(staff, and(eq(warnRuleRecipient.kind, 'staff'), eq(staff.id, warnRuleRecipient.targetId)))
    .leftJoin(role, and(eq(warnRuleRecipient.kind, 'role'), eq(role.id, warnRuleRecipient.targetId)))
    .leftJoin(
      department,
      and(eq(warnRuleRecipient.kind, 'department'), eq(department.id, warnRuleRecipient.targetId)),
    )
    .where(inArray(warnRuleRecipient.ruleId, ids))
    .orderBy(asc(warnRuleRecipient.kind), asc(warnRuleRecipient.targetId));
  return rules.map((rule) => ({
    ...rule,
    items: items.filter((i) => i.ruleId === rule.id && i.role === 'raise').map(ruleItemOf),
    clearItems: items.filter((i) => i.ruleId === rule.id && i.role === 'clear').map(ruleItemOf),
    recipients: recipients
      .filter((r) => r.ruleId === rule.id)
      .map(({ kind, id, name }) => ({ kind, id, name })),
    updatedAt: rule.updatedAt.toISOString(),
  }));
}

export async function queryWarnRules(
  db: Db,
  search: WarnRuleSearch,
  page: PageQuery,
): Promise<Page<WarnRuleRow>> {
  const where = and(
    search.name ? containsText(warnRule.name, search.name) : undefined,
    search.deviceTypeId ? eq(warnRule.deviceTypeId, search.deviceTypeId) : undefined,
  );
  const result = await paged(db, selectRules(db, where), sortable, page, { tieBreaker: warnRule.id });
  return { rows: await withDetails(db, result.rows), total: result.total };
}

export async function findWarnRule(db: Db, id: string): Promise<WarnRuleRow | undefined> {
  const rules = await selectRules(db, eq(warnRule.id, id));
  const [rule] = await withDetails(db, rules);
  return rule;
}

export async function warnRuleNameTaken(
  db: Db,
  deviceTypeId: string,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: warnRule.id })
    .from(warnRule)
    .where(
      and(
        eq(warnRule.deviceTypeId, deviceTypeId),
        sql`lower(${warnRule.name}) = lower(${name})`,
        exceptId ? ne(warnRule.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return !!row;
}

const ruleValues = (form: WarnRuleForm) => ({
  deviceTypeId: form.deviceTypeId,
  name: form.name,
  formatMsg: form.formatMsg,
  ruleType: form.ruleType,
  logicType: form.logicType,
  // What the other type does not use is not kept, so a rule never carries a stale interval.
  delayInterval: form.ruleType === 'Delay' ? (form.delayInterval ?? null) : null,
  resend: form.resend,
  resendInterval: form.resend ? (form.resendInterval ?? null) : null,
  smsNotice: form.smsNotice,
  msgNotice: form.msgNotice,
  emailNotice: form.emailNotice,
  severity: form.severity,
  clearMode: form.clearMode,
  clearLogicType: form.clearLogicType,
  enabled: form.enabled,
  description: form.desc ?? null,
});

/** Writes the rule's items and recipients anew. */
async function writeDetails(db: Db, ruleId: string, form: WarnRuleForm): Promise<void> {
  await db.delete(warnRuleItem).where(eq(warnRuleItem.ruleId, ruleId));
  await db.delete(warnRuleRecipient).where(eq(warnRuleRecipient.ruleId, ruleId));
  const items = (role: 'raise' | 'clear', list: RuleItemForm[]) =>
    list.map((item, sortIndex) => ({ ruleId, role, sortIndex, ...item }));
  const rows = [
    ...items('raise', form.items),
    ...(form.clearMode === 'items' ? items('clear', form.clearItems) : []),
  ];
  if (rows.length > 0) await db.insert(warnRuleItem).values(rows);
  if (form.recipients.length > 0) {
    await db
      .insert(warnRuleRecipient)
      .values(form.recipients.map((r) => ({ ruleId, kind: r.kind, targetId: r.id })))
      .onConflictDoNothing();
  }
}

export async function insertWarnRule(db: Db, form: WarnRuleForm): Promise<string> {
  const [row] = await db.insert(warnRule).values(ruleValues(form)).returning({ id: warnRule.id });
  await writeDetails(db, row!.id, form);
  return row!.id;
}

/** Replaces the rule; false when there is no such rule. */
export async function updateWarnRule(db: Db, id: string, form: WarnRuleForm): Promise<boolean> {
  const updated = await db
    .update(warnRule)
    .set({ ...ruleValues(form), updatedAt: new Date() })
    .where(eq(warnRule.id, id))
    .returning({ id: warnRule.id });
  if (updated.length === 0) return false;
  await writeDetails(db, id, form);
  return true;
}

export async function deleteWarnRule(db: Db, id: string): Promise<boolean> {
  const deleted = await db.delete(warnRule).where(eq(warnRule.id, id)).returning({ id: warnRule.id });
  return deleted.length > 0;
}
