import type { CommandChange, DeviceCommandRow, Page } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { applyCommandChange, mergeCommandPage } from './command-live.ts';

function command(values: Partial<DeviceCommandRow> = {}): DeviceCommandRow {
  return {
    id: 'c1',
    deviceId: 'd1',
    deviceName: 'Lock 1',
    deviceCode: 'L-1',
    cmdCode: 'setParam',
    name: 'Set parameter',
    params: '{"volume":3}',
    state: 'Waitting',
    sendFlag: false,
    sendTime: null,
    attempts: 0,
    maxRetransmit: 2,
    expireTime: '2026-03-01T09:00:00.000Z',
    transport: null,
    receiveId: null,
    platformDeviceId: null,
    detail: null,
    failure: null,
    staffName: 'admin',
    createTime: '2026-03-01T08:00:00.000Z',
    finishTime: null,
    ...values,
  };
}

function change(values: Partial<CommandChange> = {}): CommandChange {
  return {
    id: 'c1',
    deviceId: 'd1',
    cmdCode: 'setParam',
    name: 'Set parameter',
    state: 'Waitting',
    attempts: 1,
    sendFlag: true,
    updateTime: '2026-03-01T08:00:05.000Z',
    ...values,
  };
}

const page = (...rows: DeviceCommandRow[]): Page<DeviceCommandRow> => ({ rows, total: rows.length });

describe('applyCommandChange', () => {
  it('takes the state and sends, the first send time once', () => {
    const sent = applyCommandChange(command(), change());
    expect(sent).toMatchObject({
      state: 'Waitting',
      attempts: 1,
      sendFlag: true,
      sendTime: change().updateTime,
    });
    const again = applyCommandChange(sent, change({ attempts: 2, updateTime: '2026-03-01T08:01:00.000Z' }));
    expect(again).toMatchObject({ attempts: 2, sendTime: change().updateTime, finishTime: null });
  });

  it('ends a command that reaches a final state', () => {
    const done = applyCommandChange(
      command(),
      change({ state: 'Success', updateTime: '2026-03-01T08:00:09.000Z' }),
    );
    expect(done).toMatchObject({ state: 'Success', finishTime: '2026-03-01T08:00:09.000Z' });
  });
});

describe('mergeCommandPage', () => {
  it('updates a shown command without asking again while it is under way', () => {
    const merged = mergeCommandPage(page(command()), { deviceId: 'd1' }, [change()]);
    expect(merged.refetch).toBe(false);
    expect(merged.page?.rows[0]).toMatchObject({ attempts: 1, sendFlag: true });
  });

  it('asks again when a command ends, for the answer the change does not carry', () => {
    const merged = mergeCommandPage(page(command()), { deviceId: 'd1' }, [change({ state: 'Failure' })]);
    expect(merged.refetch).toBe(true);
    expect(merged.page?.rows[0]?.state).toBe('Failure');
  });

  it('asks again for a new command of the device, not of another device', () => {
    expect(mergeCommandPage(page(command()), { deviceId: 'd1' }, [change({ id: 'c2' })]).refetch).toBe(true);
    expect(
      mergeCommandPage(page(command()), { deviceId: 'd1' }, [change({ id: 'c3', deviceId: 'd2' })]),
    ).toEqual({ page: null, refetch: false });
  });

  it('asks again when a command leaves a state search', () => {
    const merged = mergeCommandPage(page(command()), { deviceId: 'd1', state: 'Waitting' }, [
      change({ state: 'NB_Send' }),
    ]);
    expect(merged.refetch).toBe(true);
  });
});
