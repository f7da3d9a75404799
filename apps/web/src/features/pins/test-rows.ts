import { PIN_MASK, type PinRow } from '@uiot/contracts';

/** A PIN as the server lists it (an enabled once-PIN under a lock task, never used), for page tests. */
export function pinRow(id: string, values: Partial<PinRow> = {}): PinRow {
  return {
    id,
    stationId: 'st',
    deviceId: 'd1',
    deviceName: 'Tsuen Wan tunnel door',
    type: 'once',
    algorithm: 'totp',
    storage: 'derived',
    code: PIN_MASK,
    createTime: '2030-01-01T08:05:00.000Z',
    startTime: '2030-01-01T08:00:00.000Z',
    endTime: '2030-01-01T10:00:00.000Z',
    weekdays: [],
    activationDeadline: '2030-01-01T10:00:00.000Z',
    useState: 'enabled',
    pendingDeletion: false,
    generatorName: 'Wong',
    userId: 's1',
    userName: 'Chan Tai Man',
    reason: 'Inspect the tunnel door',
    taskName: 'Tunnel inspection',
    byAuthorization: false,
    usageTime: null,
    lastUsedTime: null,
    useCount: 0,
    revokedAt: null,
    revokedByName: null,
    abilities: { revoke: false, showCode: false },
    ...values,
  };
}
