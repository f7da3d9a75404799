import { describe, expect, it } from 'vitest';
import {
  devicePropertyForm,
  MASTER_PROPERTIES,
  propValFits,
  ruleItemForm,
  warnRuleForm,
} from './alarm-forms.ts';
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
      problems(
        ruleItemForm.safeParse({
          ...item,
          propCode: 'tamper',
          propOrigin: 'Extension',
          valType: 'boolean',
          propVal: 'yes',
          conditionType: 'Eq',
        }),
      ),
    ).toEqual({ propVal: 'v.propValBoolean' });
  });

  it('compares text and true/false by equality only', () => {
    const extension = { ...item, propCode: 'sensor', propOrigin: 'Extension' };
    for (const conditionType of ['Ge', 'Gt', 'Le', 'Lt']) {
      expect(
        problems(ruleItemForm.safeParse({ ...extension, valType: 'string', propVal: 'open', conditionType })),
      ).toEqual({ conditionType: 'v.conditionForType' });
      expect(
        problems(
          ruleItemForm.safeParse({ ...extension, valType: 'boolean', propVal: 'true', conditionType }),
        ),
      ).toEqual({ conditionType: 'v.conditionForType' });
    }
    expect(
      ruleItemForm.safeParse({ ...extension, valType: 'string', propVal: 'open', conditionType: 'Eq' })
        .success,
    ).toBe(true);
  });

  describe('on a state the lock reports itself (Master)', () => {
    const state = (propCode: string, propVal: string) =>
      ruleItemForm.safeParse({
        propCode,
        propName: propCode,
        propOrigin: 'Master',
        propVal,
        valType: 'string',
        conditionType: 'Eq',
      });

    it('takes every value the state can take', () => {
      for (const [code, { values }] of Object.entries(MASTER_PROPERTIES)) {
        for (const value of values ?? []) expect(state(code, value).success, `${code} ${value}`).toBe(true);
      }
      expect(MASTER_PROPERTIES.doorState.values).toEqual(['open', 'closed']);
      expect(MASTER_PROPERTIES.runState.values).toEqual([
        'normal',
        'damaged',
        'lowPower',
        'timeOutNotClosed',
      ]);
    });

    it('refuses a value the state never takes, saying which it takes, in every language', () => {
      const result = state('doorState', 'opne');
      expect(problems(result)).toEqual({ propVal: 'v.propValChoice' });
      const issue = result.error!.issues[0]!;
      const params = issueParams(issue as Parameters<typeof issueParams>[0]);
      expect(params).toEqual({ values: 'open, closed' });
      expect(translateValidation('v.propValChoice', 'en', params)).toBe('Choose one of: open, closed');
      expect(translateValidation('v.propValChoice', 'zh-CN', params)).toContain('open, closed');
      expect(translateValidation('v.propValChoice', 'zh-TW', params)).toContain('open, closed');
      // Not reported yet is no value a lock reports; a value is matched exactly.
      expect(problems(state('lockState', 'unknown'))).toEqual({ propVal: 'v.propValChoice' });
      expect(problems(state('lockState', 'Open'))).toEqual({ propVal: 'v.propValChoice' });
      expect(problems(state('runState', 'broken'))).toEqual({ propVal: 'v.propValChoice' });
      // A code written in other case names the same state.
      expect(problems(state('DoorState', 'opne'))).toEqual({ propVal: 'v.propValChoice' });
    });

    it('takes the type of the property only', () => {
      expect(
        problems(
          ruleItemForm.safeParse({ ...item, propCode: 'doorState', propVal: '1', conditionType: 'Eq' }),
        ),
      ).toEqual({ valType: 'v.propertyType' });
      expect(
        problems(ruleItemForm.safeParse({ ...item, valType: 'string', propVal: 'low', conditionType: 'Eq' })),
      ).toEqual({ valType: 'v.propertyType' });
    });

    it("leaves attached devices' properties of the same code, and numbers, alone", () => {
      expect(
        ruleItemForm.safeParse({
          ...item,
          propCode: 'doorState',
          propOrigin: 'Extension',
          valType: 'string',
          propVal: 'ajar',
          conditionType: 'Eq',
        }).success,
      ).toBe(true);
      expect(ruleItemForm.safeParse(item).success).toBe(true);
    });
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
