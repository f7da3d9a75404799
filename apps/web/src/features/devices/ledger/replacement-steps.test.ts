import type { ReplacementRow } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import {
  canContinue,
  canRetry,
  currentStepIndex,
  isUnfinished,
  reasonText,
  remindsCredential,
  replacementStepItems,
  shownReasonParams,
  takeProceeded,
} from './replacement-steps.ts';

const procedure = (
  status: ReplacementRow['status'],
  states: ReplacementRow['steps'][number]['state'][],
  reason: { reason: string; params?: Record<string, string> } | null = null,
): ReplacementRow => ({
  id: 'r1',
  deviceId: 'old',
  deviceName: 'Old lock',
  replacementId: 'new',
  replacementName: 'New lock',
  replacementCode: 'NEW-1',
  status,
  steps: (['Replace', 'InformationTo', 'ReRegister', 'CancelRegistration', 'SendOldPassword'] as const).map(
    (step, index) => {
      const state = states[index] ?? 'NotExecuted';
      const failing = state === 'Failed' || state === 'Pending';
      return {
        step,
        state,
        reason: failing ? (reason?.reason ?? null) : null,
        reasonParams: failing ? (reason?.params ?? null) : null,
        time: state === 'NotExecuted' ? null : '2026-01-01T00:00:00.000Z',
        commandId: null,
      };
    },
  ),
  createdBy: 'admin',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('replacement steps as shown', () => {
  it('puts "not executed" before the five steps, at hand while nothing started', () => {
    const items = replacementStepItems(null);
    expect(items.map((item) => item.step)).toEqual([
      'NotExecuted',
      'Replace',
      'InformationTo',
      'ReRegister',
      'CancelRegistration',
      'SendOldPassword',
    ]);
    expect(items.map((item) => item.status)).toEqual(['process', 'wait', 'wait', 'wait', 'wait', 'wait']);
    expect(currentStepIndex(items)).toBe(0);
  });

  it('shows done, failed and not executed steps, the failed one at hand', () => {
    const items = replacementStepItems(
      procedure('Failed', ['Done', 'Done', 'Failed'], { reason: 'DeviceAlreadyRegistered' }),
    );
    expect(items.map((item) => item.status)).toEqual(['finish', 'finish', 'finish', 'error', 'wait', 'wait']);
    expect(items[3]?.reason).toBe('DeviceAlreadyRegistered');
    expect(currentStepIndex(items)).toBe(3);
  });

  it('shows a step waiting for the device as in progress', () => {
    const items = replacementStepItems(
      procedure('Pending', ['Done', 'Done', 'Done', 'Done', 'Pending'], {
        reason: 'awaitingLockAnswer',
        params: { command: 'c1', state: 'NB_Delivered' },
      }),
    );
    expect(items[5]).toMatchObject({
      state: 'Pending',
      status: 'process',
      reason: 'awaitingLockAnswer',
      reasonParams: { command: 'c1', state: 'NB_Delivered' },
    });
    expect(currentStepIndex(items)).toBe(5);
  });

  it('ends on the last step once complete', () => {
    const done = procedure('Completed', ['Done', 'Done', 'Done', 'Done', 'Done']);
    expect(currentStepIndex(replacementStepItems(done))).toBe(5);
    expect(isUnfinished(done)).toBe(false);
  });

  it('offers retry for failed and pending procedures, continue for one left running', () => {
    expect(canRetry(procedure('Failed', ['Failed']))).toBe(true);
    expect(canRetry(procedure('Pending', ['Pending']))).toBe(true);
    expect(canRetry(procedure('Running', ['Done']))).toBe(false);
    expect(canRetry(null)).toBe(false);
    expect(canContinue(procedure('Running', ['Done']))).toBe(true);
    expect(canContinue(procedure('NotExecuted', []))).toBe(true);
    expect(canContinue(procedure('Failed', ['Failed']))).toBe(false);
    expect(isUnfinished(procedure('Pending', ['Pending']))).toBe(true);
    expect(isUnfinished(null)).toBe(false);
  });
});

describe('reason of a step', () => {
  const own = (key: string, params: Record<string, string>) => `own:${key}:${JSON.stringify(params)}`;

  it('translates result-code names in the console language', () => {
    expect(reasonText('DeviceNotRegistered', null, 'en', own)).toMatch(/regist/i);
    expect(reasonText('DeviceNotRegistered', null, 'zh-CN', own)).toMatch(/注册/);
    expect(reasonText('DeviceNotRegistered', null, 'zh-TW', own)).toMatch(/註冊/);
  });

  it("translates the console's own reasons through its texts, with their parameters", () => {
    expect(reasonText('noOldPassword', { name: 'Old' }, 'en', own)).toBe('own:noOldPassword:{"name":"Old"}');
    for (const reason of ['sendingPassword', 'awaitingLockAnswer', 'passwordNotTaken']) {
      expect(reasonText(reason, null, 'en', own)).toBe(`own:${reason}:{}`);
    }
  });

  it('shows the state of the command a reason names as the command records name it', () => {
    const label = (state: string) => `label:${state}`;
    expect(shownReasonParams({ command: 'c1', state: 'NB_Timeout' }, label)).toEqual({
      command: 'c1',
      state: 'label:NB_Timeout',
    });
    const without = { name: 'Old' };
    expect(shownReasonParams(without, label)).toBe(without);
  });

  it('shows an unknown reason as sent, and nothing without one', () => {
    expect(reasonText('somethingElse', null, 'en', own)).toBe('somethingElse');
    expect(reasonText(null, null, 'en', own)).toBeNull();
    expect(reasonText('toString', null, 'en', own)).toBe('toString');
  });
});

describe("the replacement's credential", () => {
  const credential = {
    username: 'NEW-1',
    stationId: 'station-1',
    secret: 'c2VjcmV0LXNob3duLW9uY2U',
    pinSecret: '00'.repeat(20),
  };

  it('takes the credential out of the answer that issued it, for the credential dialog', () => {
    const row = procedure('Pending', ['Done', 'Done', 'Done', 'Done', 'Pending']);
    const { procedure: kept, issued } = takeProceeded({ ...row, credential });
    expect(issued).toEqual({ deviceName: 'New lock', reason: 'register', credential });
    expect(kept).toEqual(row);
    expect(JSON.stringify(kept)).not.toContain(credential.secret);
  });

  it('shows no credential for an answer that issued none', () => {
    const row = procedure('Failed', ['Done', 'Done', 'Done', 'Done', 'Failed']);
    expect(takeProceeded({ ...row, credential: null })).toEqual({ procedure: row, issued: null });
  });

  it('reminds where the secret went from re-registration until the procedure completes', () => {
    expect(remindsCredential(procedure('Failed', ['Done', 'Done', 'Failed']))).toBe(false);
    expect(remindsCredential(procedure('Pending', ['Done', 'Done', 'Done', 'Done', 'Pending']))).toBe(true);
    expect(remindsCredential(procedure('Failed', ['Done', 'Done', 'Done', 'Failed']))).toBe(true);
    expect(remindsCredential(procedure('Completed', ['Done', 'Done', 'Done', 'Done', 'Done']))).toBe(false);
    const withoutCode = {
      ...procedure('Pending', ['Done', 'Done', 'Done', 'Done', 'Pending']),
      replacementCode: null,
    };
    expect(remindsCredential(withoutCode)).toBe(false);
    expect(remindsCredential(null)).toBe(false);
  });
});
