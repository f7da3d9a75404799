import { describe, expect, it } from 'vitest';
import {
  ALARM_MESSAGE_FIELDS,
  type AlarmMessageContext,
  alarmMessageProblems,
  MISSING_VALUE,
  parseAlarmMessage,
  renderAlarmMessage,
} from './alarm-message.ts';
import { isValidationMessageKey, translateValidation } from './validation/messages.ts';

const context: AlarmMessageContext = {
  device: 'Door 3',
  deviceCode: 'L-0003',
  deviceType: 'Cabinet lock',
  station: 'Admiralty',
  rule: 'Door left open',
  time: '2026-11-26 23:30:00',
  props: { battery: 12, door: 'open', tamper: true },
};

describe('alarm message problems', () => {
  it('accepts every named placeholder, property placeholders of the rule and doubled braces', () => {
    const text = `${ALARM_MESSAGE_FIELDS.map((f) => `{${f}}`).join(' ')} {prop:battery} {{literal}}`;
    expect(alarmMessageProblems(text, ['battery'])).toEqual([]);
    expect(alarmMessageProblems('no placeholder at all', [])).toEqual([]);
  });

  it('names an unknown placeholder, each one once', () => {
    expect(alarmMessageProblems('{devcie} at {station} {devcie} {}', [])).toEqual([
      { key: 'v.formatMsg.unknown', params: { name: '{devcie}' } },
      { key: 'v.formatMsg.unknown', params: { name: '{}' } },
    ]);
  });

  it('is case-sensitive, as the rendering is', () => {
    expect(alarmMessageProblems('{Device}', [])).toEqual([
      { key: 'v.formatMsg.unknown', params: { name: '{Device}' } },
    ]);
  });

  it('refuses a property the rule does not read, and an empty property code', () => {
    expect(alarmMessageProblems('{prop:battery} {prop:rssi}', ['battery'])).toEqual([
      { key: 'v.formatMsg.unknownProp', params: { code: 'rssi' } },
    ]);
    expect(alarmMessageProblems('{prop:}', ['battery'])).toEqual([
      { key: 'v.formatMsg.unknown', params: { name: '{prop:}' } },
    ]);
  });

  it('refuses a brace left open or closing nothing', () => {
    expect(alarmMessageProblems('{device', [])).toEqual([{ key: 'v.formatMsg.unclosed' }]);
    expect(alarmMessageProblems('battery {prop:battery', ['battery'])).toEqual([
      { key: 'v.formatMsg.unclosed' },
    ]);
    expect(alarmMessageProblems('device}', [])).toEqual([{ key: 'v.formatMsg.unopened' }]);
    // `{{device}` is a literal `{` followed by text and a stray `}`.
    expect(alarmMessageProblems('{{device}', [])).toEqual([{ key: 'v.formatMsg.unopened' }]);
  });

  it('gives only keys that are translated, with their parameters filled', () => {
    const problems = alarmMessageProblems('{x} {prop:y} } {', []);
    expect(problems.map((p) => p.key)).toEqual([
      'v.formatMsg.unknown',
      'v.formatMsg.unopened',
      'v.formatMsg.unclosed',
      'v.formatMsg.unknownProp',
    ]);
    for (const problem of problems) expect(isValidationMessageKey(problem.key)).toBe(true);
    expect(translateValidation('v.formatMsg.unknown', 'en', { name: '{x}' })).toBe('Unknown placeholder {x}');
    expect(translateValidation('v.formatMsg.unknownProp', 'zh-CN', { code: 'y' })).toBe(
      '占位符 {prop:y} 所指的属性不在本规则的条件中',
    );
  });
});

describe('rendering an alarm message', () => {
  it('fills every named placeholder', () => {
    expect(
      renderAlarmMessage('{device} ({deviceCode}, {deviceType}) at {station}: {rule} since {time}', context),
    ).toBe('Door 3 (L-0003, Cabinet lock) at Admiralty: Door left open since 2026-11-26 23:30:00');
  });

  it('fills reported property values of every type', () => {
    expect(
      renderAlarmMessage('battery {prop:battery} %, door {prop:door}, tamper {prop:tamper}', context),
    ).toBe('battery 12 %, door open, tamper true');
    expect(renderAlarmMessage('{prop:battery}', { props: { battery: 0 } })).toBe('0');
    expect(renderAlarmMessage('{prop:tamper}', { props: { tamper: false } })).toBe('false');
  });

  it('writes doubled braces as one', () => {
    expect(renderAlarmMessage('{{{device}}} }}{{', context)).toBe('{Door 3} }{');
  });

  it('shows a missing value as a dash', () => {
    expect(renderAlarmMessage('{device}: {prop:rssi}', {})).toBe(`${MISSING_VALUE}: ${MISSING_VALUE}`);
    expect(renderAlarmMessage('{prop:door}', { props: { door: '' } })).toBe(MISSING_VALUE);
    expect(renderAlarmMessage('{prop:door}', { props: { door: null } })).toBe(MISSING_VALUE);
  });

  it('does not read inherited values', () => {
    expect(renderAlarmMessage('{prop:constructor} {prop:toString}', { props: {} })).toBe(
      `${MISSING_VALUE} ${MISSING_VALUE}`,
    );
  });

  it('never throws, and keeps faulty parts as written', () => {
    expect(renderAlarmMessage('{nope} at {device', context)).toBe('{nope} at {device');
    expect(renderAlarmMessage('a } b {', context)).toBe('a } b {');
    expect(renderAlarmMessage('', context)).toBe('');
  });
});

describe('parsing', () => {
  it('joins literal text into one part between placeholders', () => {
    expect(parseAlarmMessage('a{{b}}c{device}d').parts).toEqual([
      { kind: 'text', text: 'a{b}c' },
      { kind: 'field', field: 'device' },
      { kind: 'text', text: 'd' },
    ]);
  });
});
