import { describe, expect, it } from 'vitest';
import { devicePropertyForm, propValFits, ruleItemForm, warnRuleForm } from './alarm-forms.ts';
import { issueParams, isValidationMessageKey, translateValidation } from './messages.ts';

const item = {
  propCode: 'battery',
  propName: 'Battery',
  propOrigin: 'Master',
  propVal: '20',
  valType: 'number',
  conditionType: 'Lt',
};
const rule = {
  deviceTypeId: 't1',
  name: 'Low battery',
  formatMsg: '{device} battery low',
  ruleType: 'Instant',
  logicType: 'AND',
  items: [item],
};

/** The message keys of a failed parse, by path. */
function problems(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
}

describe('rule item', () => {
  it('takes a number compared by order', () => {
    expect(ruleItemForm.parse(item)).toMatchObject({ propCode: 'battery', propVal: '20' });
  });

  it('refuses a propVal that does not read as its type', () => {
    expect(problems(ruleItemForm.safeParse({ ...item, propVal: 'low' }))).toEqual({
      propVal: 'v.propValNumber',
    });
    expect(
      problems(ruleItemForm.safeParse({ ...item, valType: 'boolean', propVal: 'yes', conditionType: 'Eq' })),
    ).toEqual({ propVal: 'v.propValBoolean' });
  });

  it('compares text and true/false by equality only', () => {
    for (const conditionType of ['Ge', 'Gt', 'Le', 'Lt']) {
      expect(
        problems(ruleItemForm.safeParse({ ...item, valType: 'string', propVal: 'open', conditionType })),
      ).toEqual({ conditionType: 'v.conditionForType' });
      expect(
        problems(ruleItemForm.safeParse({ ...item, valType: 'boolean', propVal: 'true', conditionType })),
      ).toEqual({ conditionType: 'v.conditionForType' });
    }
    expect(
      ruleItemForm.safeParse({ ...item, valType: 'string', propVal: 'open', conditionType: 'Eq' }).success,
    ).toBe(true);
  });

  it('refuses a property code that a report could not name', () => {
    expect(problems(ruleItemForm.safeParse({ ...item, propCode: '1st' }))).toEqual({
      propCode: 'v.propCode',
    });
    expect(problems(ruleItemForm.safeParse({ ...item, propCode: 'a b' }))).toEqual({
      propCode: 'v.propCode',
    });
  });

  it('reads numbers, true and false exactly', () => {
    expect(propValFits('number', '-3.5')).toBe(true);
    expect(propValFits('number', ' ')).toBe(false);
    expect(propValFits('number', 'Infinity')).toBe(false);
    expect(propValFits('boolean', 'TRUE')).toBe(false);
    expect(propValFits('string', '')).toBe(true);
  });
});

describe('warn rule', () => {
  it('fills the defaults of an Instant rule', () => {
    expect(warnRuleForm.parse(rule)).toMatchObject({
      resend: false,
      severity: 'major',
      clearMode: 'inverse',
      clearItems: [],
      recipients: [],
      enabled: true,
    });
  });

  it('needs the delay of a Delay rule', () => {
    expect(problems(warnRuleForm.safeParse({ ...rule, ruleType: 'Delay' }))).toEqual({
      delayInterval: 'v.required',
    });
    expect(warnRuleForm.safeParse({ ...rule, ruleType: 'Delay', delayInterval: 300 }).success).toBe(true);
  });

  it('needs a resend interval of at least a minute when it resends', () => {
    expect(problems(warnRuleForm.safeParse({ ...rule, resend: true }))).toEqual({
      resendInterval: 'v.required',
    });
    expect(problems(warnRuleForm.safeParse({ ...rule, resend: true, resendInterval: 59 }))).toEqual({
      resendInterval: 'v.resendInterval',
    });
    expect(warnRuleForm.safeParse({ ...rule, resend: true, resendInterval: 60 }).success).toBe(true);
  });

  it('needs 1 to 20 items, and clear items in the items clear mode', () => {
    expect(problems(warnRuleForm.safeParse({ ...rule, items: [] }))).toEqual({ items: 'v.ruleItems' });
    expect(problems(warnRuleForm.safeParse({ ...rule, items: Array(21).fill(item) }))).toEqual({
      items: 'v.ruleItems',
    });
    expect(problems(warnRuleForm.safeParse({ ...rule, clearMode: 'items' }))).toEqual({
      clearItems: 'v.ruleItems',
    });
  });

  it('says where an item is wrong', () => {
    expect(problems(warnRuleForm.safeParse({ ...rule, items: [item, { ...item, propVal: 'x' }] }))).toEqual({
      'items.1.propVal': 'v.propValNumber',
    });
  });
});

describe('warn rule message', () => {
  const issuesOf = (formatMsg: string, items = [item]) =>
    (warnRuleForm.safeParse({ ...rule, formatMsg, items }).error?.issues ?? []).map((i) => ({
      path: i.path.join('.'),
      message: i.message,
      params: (i as { params?: Record<string, string> }).params,
    }));

  it('accepts placeholders of the device, the time and the properties its items read', () => {
    expect(issuesOf('{device} at {station}: battery {prop:battery} % since {time}')).toEqual([]);
  });

  it('refuses an unknown placeholder on formatMsg, naming it', () => {
    expect(issuesOf('{devcie} battery low')).toEqual([
      { path: 'formatMsg', message: 'v.formatMsg.unknown', params: { name: '{devcie}' } },
    ]);
  });

  it('refuses a property no item reads, and accepts it once an item reads it', () => {
    expect(issuesOf('door {prop:door}')).toEqual([
      { path: 'formatMsg', message: 'v.formatMsg.unknownProp', params: { code: 'door' } },
    ]);
    const door = { ...item, propCode: 'door', valType: 'string', propVal: 'open', conditionType: 'Eq' };
    expect(issuesOf('door {prop:door}', [item, door])).toEqual([]);
  });

  it('refuses unbalanced braces', () => {
    expect(issuesOf('{device battery low').map((i) => i.message)).toEqual(['v.formatMsg.unclosed']);
    expect(issuesOf('device} battery low').map((i) => i.message)).toEqual(['v.formatMsg.unopened']);
  });

  it('passes the placeholder to the translated message', () => {
    const [issue] = warnRuleForm.safeParse({ ...rule, formatMsg: '{devcie}' }).error?.issues ?? [];
    expect(issue && translateValidation(issue.message, 'en', issueParams(issue))).toBe(
      'Unknown placeholder {devcie}',
    );
  });
});

describe('device property', () => {
  it('takes a property with an optional unit', () => {
    expect(
      devicePropertyForm.parse({
        deviceTypeId: 't1',
        code: 'temperature',
        name: 'Temperature',
        origin: 'Extension',
        valueType: 'number',
        unit: '°C',
      }),
    ).toMatchObject({ unit: '°C' });
  });
});

describe('messages', () => {
  it('has a translation for every key these forms give', () => {
    for (const key of [
      'v.propCode',
      'v.propValNumber',
      'v.propValBoolean',
      'v.conditionForType',
      'v.ruleItems',
      'v.tooMany',
      'v.resendInterval',
    ]) {
      expect(isValidationMessageKey(key), key).toBe(true);
    }
  });
});
