import { loginForm, warnRuleForm } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { toFieldIssues } from './endpoints.ts';

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
  ruleType: 'Instant',
  logicType: 'AND',
  items: [item],
};

const issuesOf = (result: { error?: Parameters<typeof toFieldIssues>[0] }, lang: 'en' | 'zh-CN' = 'en') =>
  result.error ? toFieldIssues(result.error, lang) : [];

describe('field issues of a refused request', () => {
  it('fill the limit of a too-long text', () => {
    expect(issuesOf(loginForm.safeParse({ name: 'a'.repeat(65), pwd: 'x' }))).toEqual([
      { path: 'name', message: 'At most 64 characters' },
    ]);
  });

  it('fill the parameters a cross-field rule gives', () => {
    expect(issuesOf(warnRuleForm.safeParse({ ...rule, formatMsg: '{devcie} {prop:rssi}' }))).toEqual([
      { path: 'formatMsg', message: 'Unknown placeholder {devcie}' },
      {
        path: 'formatMsg',
        message: 'The placeholder {prop:rssi} names a property that no condition of this rule uses',
      },
    ]);
  });
});
