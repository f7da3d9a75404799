import { z } from 'zod';
import { anyOf, defineEndpoint } from '../endpoint.ts';
import { pageQuery, pageResult } from '../paging.ts';
import { Permission } from '../permissions.ts';
import {
  ALARM_SEVERITIES,
  CLEAR_MODES,
  CONDITION_TYPES,
  devicePropertyForm,
  LOGIC_TYPES,
  PROP_ORIGINS,
  PROP_VALUE_TYPES,
  RECIPIENT_KINDS,
  RULE_TYPES,
  warnRuleForm,
} from '../validation/alarm-forms.ts';

const id = z.string().min(1).max(64);
const idQuery = z.object({ id });

/** A property of a device type's catalogue (what rules can test). */
export const devicePropertyRow = z.object({
  id: z.string(),
  deviceTypeId: z.string(),
  code: z.string(),
  /** The operator's name; empty for a known field nobody renamed (the console shows `nameKey`'s text). */
  name: z.string(),
  origin: z.enum(PROP_ORIGINS),
  valueType: z.enum(PROP_VALUE_TYPES),
  unit: z.string().nullable(),
  /** One of the protocol's known fields: kept in the catalogue, its code and type fixed. */
  builtIn: z.boolean(),
  /** i18n key (`namespace:key`) of a known field's name. */
  nameKey: z.string().nullable(),
  /** The values a known text field takes (lock and door states, run states), for choosing. */
  values: z.array(z.string()).nullable(),
  /** i18n key prefix of the values' names (`<valuesKey>.<value>`); null: the values are shown as they are. */
  valuesKey: z.string().nullable(),
});
export type DevicePropertyRow = z.infer<typeof devicePropertyRow>;

/** Reading a type's properties: the device type page and the warn rule editor. */
const propertyReaders = anyOf(Permission.DeviceTypeRead, Permission.WarnRuleRead);

export const queryDeviceProperties = defineEndpoint({
  method: 'GET',
  path: '/deviceProperty/queryByType',
  access: propertyReaders,
  module: 'alarms',
  summary: "The properties a device type reports (its catalogue), the protocol's known fields first",
  query: z.object({ deviceTypeId: id }),
  response: z.array(devicePropertyRow),
});

export const saveDeviceProperty = defineEndpoint({
  method: 'POST',
  path: '/deviceProperty/save',
  access: Permission.DeviceTypeUpdate,
  module: 'alarms',
  summary: 'Add a property to the catalogue of a device type',
  body: devicePropertyForm,
  response: z.object({ id: z.string() }),
});

export const updateDeviceProperty = defineEndpoint({
  method: 'POST',
  path: '/deviceProperty/update',
  access: Permission.DeviceTypeUpdate,
  module: 'alarms',
  summary: "Change a property's name and unit (and, when it is not a known field, its code and type)",
  body: devicePropertyForm.extend({ id }),
  response: z.null(),
});

export const deleteDeviceProperty = defineEndpoint({
  method: 'GET',
  path: '/deviceProperty/del',
  access: Permission.DeviceTypeUpdate,
  module: 'alarms',
  summary: 'Remove a property the operator added; a known field stays',
  query: idQuery,
  response: z.null(),
  mutating: true,
});

export const ruleItemRow = z.object({
  propCode: z.string(),
  propName: z.string(),
  propOrigin: z.enum(PROP_ORIGINS),
  propVal: z.string(),
  valType: z.enum(PROP_VALUE_TYPES),
  conditionType: z.enum(CONDITION_TYPES),
});

export const warnRuleRow = z.object({
  id: z.string(),
  deviceTypeId: z.string(),
  deviceTypeName: z.string(),
  name: z.string(),
  formatMsg: z.string(),
  ruleType: z.enum(RULE_TYPES),
  logicType: z.enum(LOGIC_TYPES),
  delayInterval: z.number().int().nullable(),
  resend: z.boolean(),
  resendInterval: z.number().int().nullable(),
  smsNotice: z.boolean(),
  msgNotice: z.boolean(),
  emailNotice: z.boolean(),
  severity: z.enum(ALARM_SEVERITIES),
  clearMode: z.enum(CLEAR_MODES),
  clearLogicType: z.enum(LOGIC_TYPES),
  enabled: z.boolean(),
  desc: z.string().nullable(),
  items: z.array(ruleItemRow),
  clearItems: z.array(ruleItemRow),
  recipients: z.array(z.object({ kind: z.enum(RECIPIENT_KINDS), id: z.string(), name: z.string() })),
  updatedAt: z.string(),
});
export type WarnRuleRow = z.infer<typeof warnRuleRow>;

export const queryWarnRulePage = defineEndpoint({
  method: 'GET',
  path: '/warnRule/queryPage',
  access: Permission.WarnRuleRead,
  module: 'alarms',
  summary: 'Warn rules with their items, paged; searchable by name and device type',
  query: pageQuery.extend({
    name: z.string().trim().max(64, { error: 'v.tooLong' }).optional(),
    deviceTypeId: z.string().max(64).optional(),
  }),
  response: pageResult(warnRuleRow),
});

export const saveWarnRule = defineEndpoint({
  method: 'POST',
  path: '/warnRule/save',
  access: Permission.WarnRuleCreate,
  module: 'alarms',
  summary: 'Create a warn rule with its items and recipients',
  body: warnRuleForm,
  response: z.object({ id: z.string() }),
});

export const updateWarnRule = defineEndpoint({
  method: 'POST',
  path: '/warnRule/update',
  access: Permission.WarnRuleUpdate,
  module: 'alarms',
  summary: 'Replace a warn rule, its items and recipients',
  body: warnRuleForm.extend({ id }),
  response: z.null(),
});

export const deleteWarnRule = defineEndpoint({
  method: 'GET',
  path: '/warnRule/del',
  access: Permission.WarnRuleDelete,
  module: 'alarms',
  summary: 'Delete a warn rule; the alarms it raised stay, with its name',
  query: idQuery,
  response: z.null(),
  mutating: true,
});

/** Which notification channels the server can deliver on; a rule's flag for another one sends nothing. */
export const noticeChannelsConfigured = z.object({ email: z.boolean(), sms: z.boolean(), push: z.boolean() });
export type NoticeChannelsConfigured = z.infer<typeof noticeChannelsConfigured>;

export const getNoticeChannels = defineEndpoint({
  method: 'GET',
  path: '/warnRule/noticeChannels',
  access: Permission.WarnRuleRead,
  module: 'alarms',
  summary: 'Which notification channels are configured (SMTP_URL, SMS_WEBHOOK_URL, PUSH_WEBHOOK_URL)',
  response: noticeChannelsConfigured,
});
