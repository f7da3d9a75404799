import {
  type DevicePropertyForm,
  type DevicePropertyRow,
  type FieldIssue,
  type Page,
  type PageQuery,
  ResultCode,
  type RuleItemForm,
  type WarnRuleForm,
  type WarnRuleRow,
} from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { lockForTransaction } from '../../db/locks.ts';
import { AppError } from '../../http/app-error.ts';
import type { EventBus } from '../../infra/events/event-bus.ts';
import { deviceTypeExists } from '../devices/index.ts';
import { existingOrgTargets } from '../org/index.ts';
import {
  deleteDeviceProperty,
  findDeviceProperty,
  insertDeviceProperty,
  listDeviceProperties,
  propertyCodeTaken,
  rulesTestingProperty,
  seedKnownProperties,
  updateDeviceProperty,
} from './device-property.repository.ts';
import './events.ts';
import {
  deleteWarnRule,
  findWarnRule,
  insertWarnRule,
  queryWarnRules,
  updateWarnRule,
  type WarnRuleSearch,
  warnRuleNameTaken,
} from './warn-rule.repository.ts';

/** Writes to one type's rules and catalogue run one at a time, so names stay unique and items valid. */
const lockOfType = (deviceTypeId: string) => `alarms.warn-rules.${deviceTypeId}`;

/**
 * Warn rules (spec §3, /sys/warn-rule) and the property catalogue of each device type they test. A rule's
 * items must name properties of its type's catalogue, with the catalogue's value type; every change is
 * announced (`warnRule.changed`) so that rule caches of every instance reload.
 */
export class WarnRuleService {
  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
  ) {}

  query(search: WarnRuleSearch, page: PageQuery): Promise<Page<WarnRuleRow>> {
    return queryWarnRules(this.db, search, page);
  }

  async get(id: string): Promise<WarnRuleRow> {
    const rule = await findWarnRule(this.db, id);
    if (!rule) throw new AppError(ResultCode.NotFound);
    return rule;
  }

  create(form: WarnRuleForm): Promise<{ id: string }> {
    return this.events.transaction(this.db, async (tx) => {
      await lockForTransaction(tx, lockOfType(form.deviceTypeId));
      const id = await insertWarnRule(tx, await this.check(tx, form));
      this.events.publish('warnRule.changed', { deviceTypeId: form.deviceTypeId });
      return { id };
    });
  }

  update(form: WarnRuleForm & { id: string }): Promise<void> {
    return this.events.transaction(this.db, async (tx) => {
      const before = await findWarnRule(tx, form.id);
      if (!before) throw new AppError(ResultCode.NotFound);
      await lockForTransaction(tx, lockOfType(form.deviceTypeId));
      await updateWarnRule(tx, form.id, await this.check(tx, form, form.id));
      this.events.publish('warnRule.changed', { deviceTypeId: form.deviceTypeId });
      if (before.deviceTypeId !== form.deviceTypeId) {
        this.events.publish('warnRule.changed', { deviceTypeId: before.deviceTypeId });
      }
    });
  }

  /** The rule goes; the alarms it raised stay with its name, open ones no longer resent or cleared by it. */
  remove(id: string): Promise<void> {
    return this.events.transaction(this.db, async (tx) => {
      const rule = await findWarnRule(tx, id);
      if (!rule || !(await deleteWarnRule(tx, id))) throw new AppError(ResultCode.NotFound);
      this.events.publish('warnRule.changed', { deviceTypeId: rule.deviceTypeId });
    });
  }

  /** A type's catalogue, the protocol's known fields added the first time it is read. */
  async properties(deviceTypeId: string): Promise<DevicePropertyRow[]> {
    if (!(await deviceTypeExists(this.db, deviceTypeId))) throw new AppError(ResultCode.NotFound);
    await seedKnownProperties(this.db, deviceTypeId);
    return listDeviceProperties(this.db, deviceTypeId);
  }

  createProperty(form: DevicePropertyForm): Promise<{ id: string }> {
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, lockOfType(form.deviceTypeId));
      if (!(await deviceTypeExists(tx, form.deviceTypeId))) {
        throw AppError.invalid([{ path: 'deviceTypeId', message: 'v.invalid' }]);
      }
      await seedKnownProperties(tx, form.deviceTypeId);
      if (await propertyCodeTaken(tx, form)) {
        throw new AppError(ResultCode.CodeTaken, { params: { code: form.code } });
      }
      return { id: await insertDeviceProperty(tx, form) };
    });
  }

  /**
   * A known field keeps its code, origin and type (reports name it so); any property keeps its type while
   * a rule tests it, and its code too.
   */
  updateProperty(form: DevicePropertyForm & { id: string }): Promise<void> {
    return this.db.transaction(async (tx) => {
      const property = await findDeviceProperty(tx, form.id);
      if (!property || property.deviceTypeId !== form.deviceTypeId) throw new AppError(ResultCode.NotFound);
      await lockForTransaction(tx, lockOfType(form.deviceTypeId));
      const identityChanged =
        property.code !== form.code ||
        property.origin !== form.origin ||
        property.valueType !== form.valueType;
      if (identityChanged && property.builtIn) throw new AppError(ResultCode.PropertyBuiltIn);
      if (identityChanged) {
        const rules = await rulesTestingProperty(tx, property);
        if (rules.length > 0)
          throw new AppError(ResultCode.PropertyInUse, { params: { rules: rules.join(', ') } });
        if (await propertyCodeTaken(tx, form, form.id)) {
          throw new AppError(ResultCode.CodeTaken, { params: { code: form.code } });
        }
      }
      await updateDeviceProperty(tx, form.id, {
        name: form.name,
        unit: form.unit,
        ...(property.builtIn ? {} : { code: form.code, valueType: form.valueType }),
      });
    });
  }

  removeProperty(id: string): Promise<void> {
    return this.db.transaction(async (tx) => {
      const property = await findDeviceProperty(tx, id);
      if (!property) throw new AppError(ResultCode.NotFound);
      await lockForTransaction(tx, lockOfType(property.deviceTypeId));
      if (property.builtIn) throw new AppError(ResultCode.PropertyBuiltIn);
      const rules = await rulesTestingProperty(tx, property);
      if (rules.length > 0)
        throw new AppError(ResultCode.PropertyInUse, { params: { rules: rules.join(', ') } });
      await deleteDeviceProperty(tx, id);
    });
  }

  /**
   * The type exists, the name is free, items name catalogue properties, recipients exist. Answers the form
   * with each item's code as the catalogue spells it: the rule is matched against reports by that code, so a
   * rule on "DoorState" would otherwise never raise.
   */
  private async check<F extends WarnRuleForm>(db: Db, form: F, id?: string): Promise<F> {
    if (!(await deviceTypeExists(db, form.deviceTypeId))) {
      throw AppError.invalid([{ path: 'deviceTypeId', message: 'v.invalid' }]);
    }
    if (await warnRuleNameTaken(db, form.deviceTypeId, form.name, id)) {
      throw new AppError(ResultCode.NameTaken, { params: { name: form.name } });
    }
    await seedKnownProperties(db, form.deviceTypeId);
    const catalogue = await listDeviceProperties(db, form.deviceTypeId);
    const issues: FieldIssue[] = [
      ...itemIssues('items', form.items, catalogue),
      ...(form.clearMode === 'items' ? itemIssues('clearItems', form.clearItems, catalogue) : []),
    ];
    const known = await existingOrgTargets(db, form.recipients);
    form.recipients.forEach((recipient, index) => {
      if (!known.has(`${recipient.kind}:${recipient.id}`)) {
        issues.push({ path: `recipients.${index}`, message: 'v.unknownRecipient' });
      }
    });
    if (issues.length > 0) throw AppError.invalid(issues);
    const spelled = (items: RuleItemForm[]) =>
      items.map((item) => ({ ...item, propCode: propertyOf(item, catalogue)?.code ?? item.propCode }));
    return { ...form, items: spelled(form.items), clearItems: spelled(form.clearItems) };
  }
}

/** The catalogue's property an item names (codes compare without case, as the catalogue keeps them unique). */
function propertyOf(
  item: RuleItemForm,
  catalogue: readonly DevicePropertyRow[],
): DevicePropertyRow | undefined {
  return catalogue.find(
    (p) => p.origin === item.propOrigin && p.code.toLowerCase() === item.propCode.toLowerCase(),
  );
}

/** Items naming no property of the catalogue, or one of another value type. */
function itemIssues(path: string, items: readonly RuleItemForm[], catalogue: readonly DevicePropertyRow[]) {
  const issues: FieldIssue[] = [];
  items.forEach((item, index) => {
    const property = propertyOf(item, catalogue);
    if (!property) issues.push({ path: `${path}.${index}.propCode`, message: 'v.unknownProperty' });
    else if (property.valueType !== item.valType) {
      issues.push({ path: `${path}.${index}.valType`, message: 'v.propertyType' });
    }
  });
  return issues;
}
