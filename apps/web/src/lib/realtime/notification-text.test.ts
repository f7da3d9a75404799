import { ResultCode, type UserNotification } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n.ts';
import { describeNotification } from './notification-text.ts';

const finished = (overrides: Partial<UserNotification> = {}): UserNotification => ({
  kind: 'commandFinished',
  commandId: 'c1',
  deviceId: 'dev-1',
  deviceName: 'Gate 3',
  name: 'Open lock',
  state: 'Success',
  failure: null,
  ...overrides,
});
const en = (notification: UserNotification) => describeNotification(notification, i18n.getFixedT('en'), 'en');
const zh = (notification: UserNotification) =>
  describeNotification(notification, i18n.getFixedT('zh-CN'), 'zh-CN');

describe('describeNotification', () => {
  it('names the command, the device and the translated state', () => {
    expect(en(finished())).toEqual({
      style: 'success',
      title: 'Remote command Open lock to Gate 3: Succeeded',
    });
    expect(zh(finished({ state: 'NB_Successful' }))).toEqual({
      style: 'success',
      title: '发往“Gate 3”的远程指令“Open lock”：平台执行成功',
    });
  });

  it('shows a failure in error style, with its result code translated', () => {
    const view = en(
      finished({
        state: 'Failure',
        failure: { code: ResultCode.CommandUnsupported, params: { network: 'NB-IoT' } },
      }),
    );
    expect(view).toEqual({
      style: 'error',
      title: 'Remote command Open lock to Gate 3: Failed',
      description: "This device's network does not take commands from this system (NB-IoT)",
    });
    expect(
      zh(finished({ state: 'NB_Failed', failure: { code: ResultCode.DeviceNotConnected, params: {} } })),
    ).toEqual({
      style: 'error',
      title: '发往“Gate 3”的远程指令“Open lock”：平台执行失败',
      description: '设备当前未连接，指令无法下发',
    });
  });

  it('warns of a command that ran out of time and leaves out a failure code it does not know', () => {
    expect(en(finished({ state: 'NB_Timeout', failure: { code: 99_999, params: {} } }))).toEqual({
      style: 'warning',
      title: 'Remote command Open lock to Gate 3: Timed out',
    });
    expect(en(finished({ state: 'NB_Expired' })).style).toBe('warning');
    expect(en(finished({ state: 'NB_Canceled' })).style).toBe('info');
  });

  it('names the device by its id when it has no name', () => {
    expect(en(finished({ deviceName: null })).title).toBe('Remote command Open lock to dev-1: Succeeded');
  });
});
