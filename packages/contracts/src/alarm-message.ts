import type { ValidationMessageKey } from './validation/messages.ts';

/**
 * The placeholder language of a warn rule's formatMsg (spec §3 Warn rule). An operator writes the alarm
 * text once per rule; each alarm fills it with its device, rule, warn time and the reported values of the
 * properties the rule's items name. `{{` and `}}` write a literal brace, so a text may still show braces.
 * The rule editor checks a text with {@link alarmMessageProblems} before it is saved, and an alarm is
 * written with {@link renderAlarmMessage}, which never fails: a rule saved before a check existed must
 * still raise its alarm.
 */

/** The named placeholders, each written `{name}`. */
export const ALARM_MESSAGE_FIELDS = [
  'device',
  'deviceCode',
  'deviceType',
  'station',
  'rule',
  'time',
] as const;
export type AlarmMessageField = (typeof ALARM_MESSAGE_FIELDS)[number];

/** Prefix of the placeholder of a property value: `{prop:battery}`. */
export const PROP_PLACEHOLDER_PREFIX = 'prop:';

/** What a missing value renders as: visibly empty, not a blank an operator could misread. */
export const MISSING_VALUE = '—';

/** A piece of a parsed text: literal text, a named placeholder, or a property value. */
export type AlarmMessagePart =
  | { kind: 'text'; text: string }
  | { kind: 'field'; field: AlarmMessageField }
  | { kind: 'prop'; code: string };

export type AlarmMessageProblemKey = Extract<ValidationMessageKey, `v.formatMsg.${string}`>;

/** Why a text cannot be saved; `params` fill the message's `{name}` / `{code}`. */
export interface AlarmMessageProblem {
  key: AlarmMessageProblemKey;
  params?: Record<string, string>;
}

/** What fills the placeholders of one alarm: texts already formatted for the reader (the time too). */
export interface AlarmMessageContext {
  device?: string;
  deviceCode?: string;
  deviceType?: string;
  station?: string;
  rule?: string;
  time?: string;
  props?: Readonly<Record<string, string | number | boolean | null | undefined>>;
}

interface Parsed {
  parts: AlarmMessagePart[];
  problems: AlarmMessageProblem[];
}

const isField = (name: string): name is AlarmMessageField =>
  (ALARM_MESSAGE_FIELDS as readonly string[]).includes(name);

/** The part a placeholder's inner text stands for, or the problem with it. */
function placeholder(inner: string): AlarmMessagePart | AlarmMessageProblem {
  if (isField(inner)) return { kind: 'field', field: inner };
  if (inner.startsWith(PROP_PLACEHOLDER_PREFIX) && inner.length > PROP_PLACEHOLDER_PREFIX.length) {
    return { kind: 'prop', code: inner.slice(PROP_PLACEHOLDER_PREFIX.length) };
  }
  return { key: 'v.formatMsg.unknown', params: { name: `{${inner}}` } };
}

/**
 * Splits a text into parts. A problem does not stop the parse: the text around it is kept (a brace that
 * opens nothing or is never closed stays as written), so rendering a faulty text still shows the rest.
 */
export function parseAlarmMessage(formatMsg: string): Parsed {
  const parts: AlarmMessagePart[] = [];
  const problems: AlarmMessageProblem[] = [];
  let text = '';
  const flush = () => {
    if (text !== '') parts.push({ kind: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < formatMsg.length) {
    const ch = formatMsg[i] as string;
    const twice = formatMsg[i + 1] === ch;
    if ((ch === '{' || ch === '}') && twice) {
      text += ch;
      i += 2;
    } else if (ch === '}') {
      problems.push({ key: 'v.formatMsg.unopened' });
      text += ch;
      i += 1;
    } else if (ch === '{') {
      const close = formatMsg.indexOf('}', i + 1);
      if (close < 0) {
        problems.push({ key: 'v.formatMsg.unclosed' });
        text += formatMsg.slice(i);
        break;
      }
      const part = placeholder(formatMsg.slice(i + 1, close));
      if ('kind' in part) {
        flush();
        parts.push(part);
      } else {
        problems.push(part);
        text += formatMsg.slice(i, close + 1);
      }
      i = close + 1;
    } else {
      text += ch;
      i += 1;
    }
  }
  flush();
  return { parts, problems };
}

const sameProblem = (a: AlarmMessageProblem, b: AlarmMessageProblem) =>
  a.key === b.key && JSON.stringify(a.params) === JSON.stringify(b.params);

/**
 * Why `formatMsg` cannot be saved for a rule whose items name `propCodes`: each distinct problem once, in
 * the order met. A `{prop:x}` must name a property the rule reads, since no other value is at hand when
 * the alarm is raised.
 */
export function alarmMessageProblems(formatMsg: string, propCodes: readonly string[]): AlarmMessageProblem[] {
  const { parts, problems } = parseAlarmMessage(formatMsg);
  for (const part of parts) {
    if (part.kind === 'prop' && !propCodes.includes(part.code)) {
      problems.push({ key: 'v.formatMsg.unknownProp', params: { code: part.code } });
    }
  }
  return problems.filter((problem, index) => problems.findIndex((p) => sameProblem(p, problem)) === index);
}

function valueText(value: string | number | boolean | null | undefined): string {
  if (value === undefined || value === null || value === '') return MISSING_VALUE;
  return String(value);
}

/** The alarm text: placeholders filled, a missing value as {@link MISSING_VALUE}, faulty parts as written. */
export function renderAlarmMessage(formatMsg: string, context: AlarmMessageContext): string {
  return parseAlarmMessage(formatMsg)
    .parts.map((part) => {
      if (part.kind === 'text') return part.text;
      if (part.kind === 'field') return valueText(context[part.field]);
      const props = context.props ?? {};
      // Own values only: a code such as `constructor` must not reach the object's prototype.
      return valueText(Object.hasOwn(props, part.code) ? props[part.code] : undefined);
    })
    .join('');
}
