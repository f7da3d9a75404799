import type { LockTaskAbilities, LockTaskRow, OperationRecordRow } from '@uiot/contracts';

/** What a task row's user may do when a test says nothing. */
export const NO_ABILITIES: LockTaskAbilities = {
  update: false,
  submit: false,
  audit: false,
  cancel: false,
  forceEnd: false,
  delete: false,
};

/** A lock task as the server lists it (waiting for audit, one device with its key), for page tests. */
export function taskRow(id: string, name: string, values: Partial<LockTaskRow> = {}): LockTaskRow {
  return {
    id,
    name,
    startTime: '2030-01-01T00:00:00.000Z',
    endTime: '2030-01-02T00:00:00.000Z',
    state: 'Audit',
    authFlag: 'Audit',
    reason: null,
    auditedByName: null,
    auditedAt: null,
    auditDept: null,
    auditor: null,
    operateDept: null,
    operators: [{ id: 's1', name: 'Chan Tai Man' }],
    allDevice: false,
    items: [
      {
        id: `${id}-i1`,
        deviceId: 'd1',
        deviceName: 'Gate 1',
        keyId: 'k1',
        keyName: 'Key 7',
        toKeyTime: null,
        downloadRefusal: null,
        uploadTime: null,
      },
    ],
    finishFlag: null,
    finishTime: null,
    taskSource: 'console',
    creatorId: 'other',
    creatorName: 'Wong',
    createdAt: '2029-12-01T00:00:00.000Z',
    abilities: NO_ABILITIES,
    ...values,
  };
}

/** An operation record as the server lists it (a remote open sent under an authorisation), for page tests. */
export function operationRow(id: string, values: Partial<OperationRecordRow> = {}): OperationRecordRow {
  return {
    id,
    deviceId: 'd1',
    deviceName: '荃湾站B出口通信机房智能门锁',
    deviceCode: 'TW-B-0001',
    staffId: 's1',
    staffName: 'Chan Tai Man',
    keyId: null,
    keyName: null,
    lockCode: null,
    taskId: null,
    taskName: null,
    authorizationId: 'a1',
    action: 'open',
    opMethod: 'remote',
    source: 'console',
    result: 'sent',
    refusal: null,
    commandId: 'c1',
    commandState: 'Waitting',
    covered: null,
    photoFileId: null,
    operateTime: '2030-01-01T08:00:00.000Z',
    uploadTime: null,
    stationId: 'st',
    ...values,
  };
}
