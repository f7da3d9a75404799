import { z } from 'zod';
import { alarmMessageProblems } from '../alarm-message.ts';
import { intervalSeconds } from './device-formats.ts';
import { OPEN_STATES, RUN_STATES } from './device-forms.ts';
import { nameText, optionalText } from './org-forms.ts';

/** How a warn rule raises (spec §3 Warn rule): at once, or once its condition has held for delayInterval. */
export const RULE_TYPES = ['Instant', 'Delay'] as const;
export type RuleType = (typeof RULE_TYPES)[number];
/** How a rule's items combine (spec §3 Warn rule logicType). */
export const LOGIC_TYPES = ['AND', 'OR'] as const;
export type LogicType = (typeof LOGIC_TYPES)[number];
/** How an item compares the reported value with its propVal (spec §3 Rule item conditionType). */
export const CONDITION_TYPES = ['Eq', 'Ge', 'Gt', 'Le', 'Lt'] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];
/** Where a property comes from (spec §3 Rule item propOrigin): the device itself, or an attached device. */
export const PROP_ORIGINS = ['Master', 'Extension'] as const;
export type PropOrigin = (typeof PROP_ORIGINS)[number];
/** The value type of a property and of a rule item's propVal (spec §3 Rule item valType). */
export const PROP_VALUE_TYPES = ['number', 'string', 'boolean'] as const;
export type PropValueType = (typeof PROP_VALUE_TYPES)[number];
/** Comparisons each value type allows: order only between numbers. */
export const CONDITIONS_OF_VALUE_TYPE: Record<PropValueType, readonly ConditionType[]> = {
  number: CONDITION_TYPES,
  string: ['Eq'],
  boolean: ['Eq'],
};
/** Severity of the alarms a rule raises (beyond the spec), most severe first. */
export const ALARM_SEVERITIES = ['critical', 'major', 'minor', 'warning'] as const;
export type AlarmSeverity = (typeof ALARM_SEVERITIES)[number];
/** Alarm state (spec §4 alarm reset state): open, cleared by itself (auto reset), reset by staff. */
export const ALARM_STATES = ['Warn', 'Normal', 'Reset'] as const;
export type AlarmState = (typeof ALARM_STATES)[number];
/**
 * When an open alarm clears by itself: once the raise condition no longer holds (`inverse`, the default),
 * or once the rule's own clear items hold (`items`).
 */
export const CLEAR_MODES = ['inverse', 'items'] as const;
export type ClearMode = (typeof CLEAR_MODES)[number];
/** Who a rule notifies: staff members, everyone holding a role, everyone in a department. */
export const RECIPIENT_KINDS = ['staff', 'role', 'department'] as const;
export type RecipientKind = (typeof RECIPIENT_KINDS)[number];

/** The channels an alarm notifies its rule's recipients on besides the console (rule flags emailNotice, smsNotice, msgNotice). */
export const NOTICE_CHANNELS = ['email', 'sms', 'push'] as const;
export type NoticeChannel = (typeof NOTICE_CHANNELS)[number];
/** What a notification tells: a new alarm, or a reminder of one still open. */
export const NOTICE_OCCASIONS = ['raised', 'reminder'] as const;
export type NoticeOccasion = (typeof NOTICE_OCCASIONS)[number];
/** A notification waits for delivery (or its next attempt), was delivered, or failed its last attempt. */
export const NOTICE_STATES = ['pending', 'sent', 'failed'] as const;
export type NoticeState = (typeof NOTICE_STATES)[number];

/** Most items per condition of a rule. */
export const MAX_RULE_ITEMS = 20;
/** Most recipients per rule. */
export const MAX_RULE_RECIPIENTS = 100;
/** Shortest resend interval, in seconds: a reminder more often than every minute is noise. */
export const MIN_RESEND_INTERVAL_SECONDS = 60;

/** Lock and door report open or closed; `unknown` is the console's word for "not reported yet". */
const REPORTED_OPEN_STATES = OPEN_STATES.filter((state) => state !== 'unknown');

/**
 * The properties every lock reports itself (propOrigin Master, spec §3 Rule item) by the codes rules name
 * them with: their value type, and for a state the values it takes. A rule item on one of them must use its
 * type and, on a state, one of its values: a rule on a value the lock never reports would never raise.
 */
export const MASTER_PROPERTIES = {
  lockState: { valueType: 'string', values: REPORTED_OPEN_STATES },
  doorState: { valueType: 'string', values: REPORTED_OPEN_STATES },
  battery: { valueType: 'number', values: null },
  rssi: { valueType: 'number', values: null },
  runState: { valueType: 'string', values: RUN_STATES },
  online: { valueType: 'boolean', values: null },
} as const satisfies Record<string, { valueType: PropValueType; values: readonly string[] | null }>;
export type MasterPropertyCode = keyof typeof MASTER_PROPERTIES;

/** The Master property a code names, as the catalogue matches codes (whatever the case); undefined if none. */
export function masterProperty(code: string): (typeof MASTER_PROPERTIES)[MasterPropertyCode] | undefined {
  const lower = code.toLowerCase();
  const found = (Object.keys(MASTER_PROPERTIES) as MasterPropertyCode[]).find(
    (c) => c.toLowerCase() === lower,
  );
  return found ? MASTER_PROPERTIES[found] : undefined;
}

/** A property code: what a report names it (letters, digits, `_ . -`, starting with a letter). */
export const propCode = z
  .string({ error: 'v.required' })
  .trim()
  .min(1, { error: 'v.required' })
  .max(64, { error: 'v.tooLong' })
  .regex(/^[A-Za-z][A-Za-z0-9_.-]*$/, { error: 'v.propCode' });

/** Whether a rule item's propVal reads as a value of its type. */
export function propValFits(valType: PropValueType, propVal: string): boolean {
  if (valType === 'number') return propVal.trim() !== '' && Number.isFinite(Number(propVal));
  if (valType === 'boolean') return propVal === 'true' || propVal === 'false';
  return true;
}

/** One condition of a warn rule (spec §3 Rule item). */
export const ruleItemForm = z
  .object({
    propCode,
    propName: nameText(64),
    propOrigin: z.enum(PROP_ORIGINS),
    propVal: z.string({ error: 'v.required' }).trim().min(1, { error: 'v.required' }).max(255, {
      error: 'v.tooLong',
    }),
    valType: z.enum(PROP_VALUE_TYPES),
    conditionType: z.enum(CONDITION_TYPES),
  })
  .superRefine((item, ctx) => {
    if (!propValFits(item.valType, item.propVal)) {
      const message = item.valType === 'number' ? 'v.propValNumber' : 'v.propValBoolean';
      ctx.addIssue({ code: 'custom', path: ['propVal'], message });
    }
    if (!CONDITIONS_OF_VALUE_TYPE[item.valType].includes(item.conditionType)) {
      ctx.addIssue({ code: 'custom', path: ['conditionType'], message: 'v.conditionForType' });
    }
    const master = item.propOrigin === 'Master' ? masterProperty(item.propCode) : undefined;
    if (master && master.valueType !== item.valType) {
      ctx.addIssue({ code: 'custom', path: ['valType'], message: 'v.propertyType' });
    } else if (master?.values) {
      const values: readonly string[] = master.values;
      if (!values.includes(item.propVal)) {
        const params = { values: values.join(', ') };
        ctx.addIssue({ code: 'custom', path: ['propVal'], message: 'v.propValChoice', params });
      }
    }
  });
export type RuleItemForm = z.infer<typeof ruleItemForm>;

export const ruleRecipient = z.object({
  kind: z.enum(RECIPIENT_KINDS),
  id: z.string().min(1, { error: 'v.required' }).max(64),
});
export type RuleRecipient = z.infer<typeof ruleRecipient>;

const optionalSeconds = intervalSeconds.nullable().optional();

/**
 * Warn rule (spec §3, /sys/warn-rule) with its items, and beyond the spec: severity, a clear condition
 * and recipients. A Delay rule needs its delay, a resending rule its interval; `items` clear mode needs
 * clear items.
 */
export const warnRuleForm = z
  .object({
    deviceTypeId: z.string({ error: 'v.required' }).min(1, { error: 'v.required' }).max(64),
    name: nameText(64),
    formatMsg: nameText(500),
    ruleType: z.enum(RULE_TYPES),
    logicType: z.enum(LOGIC_TYPES),
    delayInterval: optionalSeconds,
    resend: z.boolean().default(false),
    resendInterval: optionalSeconds,
    smsNotice: z.boolean().default(false),
    msgNotice: z.boolean().default(false),
    emailNotice: z.boolean().default(false),
    severity: z.enum(ALARM_SEVERITIES).default('major'),
    clearMode: z.enum(CLEAR_MODES).default('inverse'),
    clearLogicType: z.enum(LOGIC_TYPES).default('AND'),
    enabled: z.boolean().default(true),
    items: z
      .array(ruleItemForm)
      .min(1, { error: 'v.ruleItems' })
      .max(MAX_RULE_ITEMS, { error: 'v.ruleItems' }),
    clearItems: z.array(ruleItemForm).max(MAX_RULE_ITEMS, { error: 'v.ruleItems' }).default([]),
    recipients: z.array(ruleRecipient).max(MAX_RULE_RECIPIENTS, { error: 'v.tooMany' }).default([]),
    desc: optionalText(255),
  })
  .superRefine((rule, ctx) => {
    if (rule.ruleType === 'Delay' && !rule.delayInterval) {
      ctx.addIssue({ code: 'custom', path: ['delayInterval'], message: 'v.required' });
    }
    if (rule.resend) {
      if (!rule.resendInterval) {
        ctx.addIssue({ code: 'custom', path: ['resendInterval'], message: 'v.required' });
      } else if (rule.resendInterval < MIN_RESEND_INTERVAL_SECONDS) {
        ctx.addIssue({ code: 'custom', path: ['resendInterval'], message: 'v.resendInterval' });
      }
    }
    if (rule.clearMode === 'items' && rule.clearItems.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['clearItems'], message: 'v.ruleItems' });
    }
    const propCodes = rule.items.map((item) => item.propCode);
    for (const problem of alarmMessageProblems(rule.formatMsg, propCodes)) {
      ctx.addIssue({ code: 'custom', path: ['formatMsg'], message: problem.key, params: problem.params });
    }
  });
export type WarnRuleForm = z.infer<typeof warnRuleForm>;

/**
 * A property a device type reports (the warn rule editor offers these): from the protocol's known fields
 * (Master) or named by the operator (Extension properties of attached devices).
 */
export const devicePropertyForm = z.object({
  deviceTypeId: z.string({ error: 'v.required' }).min(1, { error: 'v.required' }).max(64),
  code: propCode,
  name: nameText(64),
  origin: z.enum(PROP_ORIGINS),
  valueType: z.enum(PROP_VALUE_TYPES),
  unit: optionalText(16),
});
export type DevicePropertyForm = z.infer<typeof devicePropertyForm>;
