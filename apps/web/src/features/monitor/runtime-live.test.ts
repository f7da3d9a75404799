import type { Page, RuntimeChange, RuntimeRow } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import {
  applyRuntimeChange,
  mayEnterQuery,
  mergeDeviceRuntime,
  mergeRuntimePage,
  offlineSecondsAt,
  rowMatchesQuery,
} from './runtime-live.ts';

const NOW = new Date('2026-03-01T08:00:00Z');

function row(values: Partial<RuntimeRow> = {}): RuntimeRow {
  return {
    deviceId: 'd1',
    deviceName: 'Lock 1',
    deviceCode: 'L-1',
    stationId: 's1',
    unitId: 'u1',
    unitName: 'Unit',
    typeId: 't1',
    typeName: 'Type',
    lockState: 'closed',
    doorState: 'closed',
    online: true,
    battery: 80,
    lastCollectTime: '2026-03-01T07:59:00.000Z',
    offlineSeconds: null,
    offlineSince: null,
    runState: 'normal',
    rssi: -70,
    devEui: null,
    props: { temperature: 21 },
    abilities: { operate: true },
    ...values,
  };
}

function change(values: Partial<RuntimeChange> = {}): RuntimeChange {
  return {
    deviceId: 'd1',
    messageId: 'm-1',
    online: true,
    lastCollectTime: '2026-03-01T07:59:30.000Z',
    ...values,
  };
}

const page = (...rows: RuntimeRow[]): Page<RuntimeRow> => ({ rows, total: rows.length });

describe('applyRuntimeChange', () => {
  it('takes the states the change carries and keeps the others', () => {
    const after = applyRuntimeChange(row(), change({ doorState: 'open', battery: 55 }), NOW);
    expect(after).toEqual(
      row({ doorState: 'open', battery: 55, lastCollectTime: '2026-03-01T07:59:30.000Z' }),
    );
  });

  it('counts the offline time from when the server marked the device offline, as the server does', () => {
    // Heartbeat 300 s: silent since 07:50, offline since the allowance ran out at 08:00 - 5 min.
    const offline = change({
      messageId: null,
      online: false,
      lastCollectTime: '2026-03-01T07:50:00.000Z',
      offlineSince: '2026-03-01T07:55:00.000Z',
    });
    expect(applyRuntimeChange(row(), offline, NOW)).toMatchObject({
      online: false,
      offlineSince: '2026-03-01T07:55:00.000Z',
      offlineSeconds: 300,
    });
  });

  it('counts from the last message when the change does not say since when, as the server does', () => {
    const offline = change({ messageId: null, online: false, lastCollectTime: '2026-03-01T07:58:00.000Z' });
    expect(applyRuntimeChange(row(), offline, NOW)).toMatchObject({
      online: false,
      offlineSince: null,
      offlineSeconds: 120,
    });
  });

  it('ends the offline time when the device reports again', () => {
    const offline = row({ online: false, offlineSeconds: 600, offlineSince: '2026-03-01T07:50:00.000Z' });
    expect(applyRuntimeChange(offline, change(), NOW)).toMatchObject({
      online: true,
      offlineSince: null,
      offlineSeconds: null,
    });
  });

  it('keeps the last collection time when the change has none', () => {
    const after = applyRuntimeChange(row(), change({ online: false, lastCollectTime: null }), NOW);
    expect(after.lastCollectTime).toBe('2026-03-01T07:59:00.000Z');
    expect(after.offlineSeconds).toBe(60);
  });

  it('keeps online and the offline time when the change tells a run state only', () => {
    const runStateOnly: RuntimeChange = { deviceId: 'd1', messageId: null, runState: 'timeOutNotClosed' };
    const offline = row({ online: false, offlineSeconds: 600 });
    expect(applyRuntimeChange(offline, runStateOnly, NOW)).toEqual({
      ...offline,
      runState: 'timeOutNotClosed',
    });
    expect(applyRuntimeChange(row(), runStateOnly, NOW)).toEqual(row({ runState: 'timeOutNotClosed' }));
  });

  it('leaves extension properties and ledger fields alone', () => {
    const after = applyRuntimeChange(row(), change({ runState: 'damaged', rssi: -90 }), NOW);
    expect(after).toMatchObject({
      props: { temperature: 21 },
      deviceName: 'Lock 1',
      runState: 'damaged',
      rssi: -90,
    });
  });
});

describe('offlineSecondsAt', () => {
  it('counts the offline time at the clock it is given, so a shown row keeps counting', () => {
    const offline = row({ online: false, offlineSince: '2026-03-01T07:55:00.000Z', offlineSeconds: 300 });
    expect(offlineSecondsAt(offline, NOW)).toBe(300);
    expect(offlineSecondsAt(offline, new Date(NOW.getTime() + 30_000))).toBe(330);
    expect(offlineSecondsAt(offline, new Date(NOW.getTime() + 3_600_000))).toBe(3900);
  });

  it('is null for an online device, and falls back to the last message like the server', () => {
    expect(offlineSecondsAt(row(), NOW)).toBeNull();
    expect(offlineSecondsAt(row({ online: false, lastCollectTime: '2026-03-01T07:59:00.000Z' }), NOW)).toBe(
      60,
    );
  });
});

describe('rowMatchesQuery', () => {
  it('passes every row without state filters', () => {
    expect(rowMatchesQuery(row({ online: false }), { name: 'x', pageIndex: 1 })).toBe(true);
  });

  it('reads online as text or as a boolean', () => {
    expect(rowMatchesQuery(row({ online: true }), { online: 'true' })).toBe(true);
    expect(rowMatchesQuery(row({ online: true }), { online: false })).toBe(false);
  });

  it('compares lock, door and run states, unknown included', () => {
    expect(rowMatchesQuery(row({ lockState: 'open' }), { lockState: 'open' })).toBe(true);
    expect(rowMatchesQuery(row({ doorState: 'unknown' }), { doorState: 'unknown' })).toBe(true);
    expect(rowMatchesQuery(row({ doorState: 'closed' }), { doorState: 'open' })).toBe(false);
    expect(rowMatchesQuery(row({ runState: 'lowPower' }), { runState: 'normal' })).toBe(false);
  });

  it('puts battery levels in the default bands: low < 20 ≤ medium < 60 ≤ high', () => {
    const band = (battery: number | null, batteryBand: string) =>
      rowMatchesQuery(row({ battery }), { batteryBand });
    expect(band(19.9, 'low')).toBe(true);
    expect(band(20, 'low')).toBe(false);
    expect(band(20, 'medium')).toBe(true);
    expect(band(59.9, 'medium')).toBe(true);
    expect(band(60, 'high')).toBe(true);
    expect(band(null, 'low')).toBe(false);
  });

  it('puts battery levels in the bands of the power levels when the server gives them', () => {
    const scale = { lowBelow: 30, highFrom: 70, fromLevels: true };
    expect(rowMatchesQuery(row({ battery: 25 }), { batteryBand: 'low' }, scale)).toBe(true);
    expect(rowMatchesQuery(row({ battery: 30 }), { batteryBand: 'medium' }, scale)).toBe(true);
    expect(rowMatchesQuery(row({ battery: 65 }), { batteryBand: 'high' }, scale)).toBe(false);
    expect(mayEnterQuery(change({ battery: 25 }), { batteryBand: 'low' }, scale)).toBe(true);
  });
});

describe('mayEnterQuery', () => {
  it('says nothing without state filters', () => {
    expect(mayEnterQuery(change({ doorState: 'open' }), { name: 'Lock' })).toBe(false);
  });

  it('sees a device reach a filtered state', () => {
    expect(mayEnterQuery(change({ doorState: 'open' }), { doorState: 'open' })).toBe(true);
    expect(mayEnterQuery(change({ battery: 10 }), { batteryBand: 'low' })).toBe(true);
  });

  it('does not when the state is another, or was not told', () => {
    expect(mayEnterQuery(change({ doorState: 'closed' }), { doorState: 'open' })).toBe(false);
    expect(mayEnterQuery(change({ lockState: 'open' }), { doorState: 'open' })).toBe(false);
  });

  it('does not when what the change tells contradicts another filter', () => {
    expect(mayEnterQuery(change({ doorState: 'open' }), { doorState: 'open', online: 'false' })).toBe(false);
  });

  it('sees a run state the server worked out reach the filter, and does not read online from it', () => {
    const runStateOnly: RuntimeChange = { deviceId: 'd1', messageId: null, runState: 'lowPower' };
    expect(mayEnterQuery(runStateOnly, { runState: 'lowPower' })).toBe(true);
    expect(mayEnterQuery(runStateOnly, { runState: 'lowPower', online: 'false' })).toBe(true);
    expect(mayEnterQuery(runStateOnly, { runState: 'damaged' })).toBe(false);
    expect(mayEnterQuery(runStateOnly, { online: 'false' })).toBe(false);
  });

  it('sees a device go offline, but not every report of an online one', () => {
    expect(mayEnterQuery(change({ online: false, messageId: null }), { online: 'false' })).toBe(true);
    expect(mayEnterQuery(change(), { online: 'true' })).toBe(false);
  });
});

describe('mergeRuntimePage', () => {
  it('updates the shown row in place without asking the server again', () => {
    const before = page(row(), row({ deviceId: 'd2', deviceName: 'Lock 2' }));
    const merged = mergeRuntimePage(before, {}, [change({ deviceId: 'd2', doorState: 'open' })], NOW);
    expect(merged.refetch).toBe(false);
    expect(merged.page?.rows.map((r) => [r.deviceId, r.doorState])).toEqual([
      ['d1', 'closed'],
      ['d2', 'open'],
    ]);
    expect(merged.page?.total).toBe(2);
    expect(before.rows[1]?.doorState).toBe('closed');
  });

  it('applies several changes of one device in order', () => {
    const merged = mergeRuntimePage(
      page(row()),
      {},
      [change({ doorState: 'open' }), change({ doorState: 'closed', messageId: 'm-2' })],
      NOW,
    );
    expect(merged.page?.rows[0]?.doorState).toBe('closed');
  });

  it('asks again when a row leaves the search', () => {
    const merged = mergeRuntimePage(
      page(row({ doorState: 'open' })),
      { doorState: 'open' },
      [change({ doorState: 'closed' })],
      NOW,
    );
    expect(merged.refetch).toBe(true);
    expect(merged.page?.rows[0]?.doorState).toBe('closed');
  });

  it('asks again when a device not shown may enter the search', () => {
    const merged = mergeRuntimePage(
      page(row()),
      { lockState: 'open' },
      [change({ deviceId: 'd9', lockState: 'open' })],
      NOW,
    );
    expect(merged).toEqual({ page: null, refetch: true });
  });

  it('ignores devices not shown that cannot enter', () => {
    expect(mergeRuntimePage(page(row()), {}, [change({ deviceId: 'd9', doorState: 'open' })], NOW)).toEqual({
      page: null,
      refetch: false,
    });
  });

  it('asks again when the change moves the row in the sort order', () => {
    const sorted = { sort: 'battery', ascending: true };
    expect(mergeRuntimePage(page(row()), sorted, [change({ battery: 12 })], NOW).refetch).toBe(true);
    expect(mergeRuntimePage(page(row()), sorted, [change({ doorState: 'open' })], NOW).refetch).toBe(false);
    expect(
      mergeRuntimePage(page(row()), { sort: 'deviceName' }, [change({ battery: 12 })], NOW).refetch,
    ).toBe(false);
  });
});

describe('mergeDeviceRuntime', () => {
  it('applies the changes of that device only', () => {
    const merged = mergeDeviceRuntime(
      row(),
      [change({ deviceId: 'd2', lockState: 'open' }), change({ battery: 5 })],
      NOW,
    );
    expect(merged).toMatchObject({ lockState: 'closed', battery: 5 });
  });

  it('leaves an unknown device unknown', () => {
    expect(mergeDeviceRuntime(null, [change()], NOW)).toBeNull();
  });
});
