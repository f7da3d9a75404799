import { FLAGGED_DEVICE_FIELDS, type FlaggedFields, ResultCode } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import {
  attachmentPlaceRefusal,
  deletionRefusal,
  flaggedFieldRefusal,
  type LedgerDevice,
  registeredIdentityChanges,
  registrationRefusal,
  resetImeiRefusal,
} from './ledger-rules.ts';

const main = (regist: boolean): LedgerDevice => ({ regist, mainDeviceId: null });
const attachment: LedgerDevice = { regist: false, mainDeviceId: 'm1' };

describe('ledger rules', () => {
  it('delete an unregistered main device without attached devices only', () => {
    expect(deletionRefusal(main(false), 0)).toBeNull();
    expect(deletionRefusal(main(true), 0)).toBe(ResultCode.DeviceRegistered);
    expect(deletionRefusal(main(true), 2)).toBe(ResultCode.DeviceRegistered);
    expect(deletionRefusal(main(false), 1)).toBe(ResultCode.DeviceHasAttachments);
    expect(deletionRefusal(attachment, 0)).toBe(ResultCode.NotAMainDevice);
  });

  it('keep the code, DevEUI and IMEI of a registered device, and let an unregistered one change them', () => {
    const known = { code: 'L-01', devEUI: 'A1B2C3D4E5F60718', imei: null };
    const same = { code: 'L-01', devEUI: 'A1B2C3D4E5F60718' };
    expect(registeredIdentityChanges({ ...main(true), ...known }, same)).toEqual([]);
    expect(registeredIdentityChanges({ ...main(true), ...known }, { ...same, code: 'L-02' })).toEqual([
      'code',
    ]);
    expect(
      registeredIdentityChanges({ ...main(true), ...known }, { code: 'L-01', imei: '860000000000001' }),
    ).toEqual(['devEUI', 'imei']);
    expect(registeredIdentityChanges({ ...main(false), ...known }, { code: 'L-02' })).toEqual([]);
  });

  it('register an unregistered main device, unregister a registered one', () => {
    expect(registrationRefusal(main(false), true)).toBeNull();
    expect(registrationRefusal(main(true), true)).toBe(ResultCode.DeviceAlreadyRegistered);
    expect(registrationRefusal(main(true), false)).toBeNull();
    expect(registrationRefusal(main(false), false)).toBe(ResultCode.DeviceNotRegistered);
    expect(registrationRefusal(attachment, true)).toBe(ResultCode.NotAMainDevice);
    expect(registrationRefusal(attachment, false)).toBe(ResultCode.NotAMainDevice);
  });

  it('reset the IMEI of an unregistered device only', () => {
    expect(resetImeiRefusal(main(false))).toBeNull();
    expect(resetImeiRefusal(attachment)).toBeNull();
    expect(resetImeiRefusal(main(true))).toBe(ResultCode.UnregisterFirst);
  });

  it('hang attached devices under an existing main device only', () => {
    expect(attachmentPlaceRefusal(main(true))).toBeNull();
    expect(attachmentPlaceRefusal(main(false))).toBeNull();
    expect(attachmentPlaceRefusal(attachment)).toBe(ResultCode.NotAMainDevice);
    expect(attachmentPlaceRefusal(undefined)).toBe(ResultCode.NotAMainDevice);
  });
});

describe('flagged device fields (spec §6: NoState, SupportIoT, ShowKmInfo)', () => {
  const ON = { SupportIoT: 'true', NoState: 'true', ShowKmInfo: 'true' };
  const empty = { imei: null, noState: false, kmInfo: null, iotType: null };
  const fields: FlaggedFields<Record<string, unknown>> = FLAGGED_DEVICE_FIELDS;
  const refusal = (flags: Record<string, string>, before: object | null, after: object) =>
    flaggedFieldRefusal<Record<string, unknown>>(flags, fields, before as Record<string, unknown> | null, {
      ...empty,
      ...after,
    });

  it('accepts every field while its flag is on', () => {
    expect(refusal(ON, null, { noState: true, imei: '861234567890123', kmInfo: 'K1' })).toBeNull();
  });

  it('refuses a new device that sets a field of a flag that is off, naming the flag', () => {
    expect(refusal({ ...ON, NoState: 'false' }, null, { noState: true })).toBe('NoState');
    expect(refusal({ ...ON, SupportIoT: 'false' }, null, { iotType: 'ChinaMobile' })).toBe('SupportIoT');
    expect(refusal({ ...ON, ShowKmInfo: 'false' }, null, { kmInfo: 'K1' })).toBe('ShowKmInfo');
    // An unset flag is off.
    expect(refusal({}, null, { noState: true })).toBe('NoState');
  });

  it('accepts the empty values of a field of a flag that is off', () => {
    expect(refusal({}, null, { noState: false, imei: '', kmInfo: undefined })).toBeNull();
  });

  it('lets an edit keep what the device has in a hidden field, and refuses a change of it', () => {
    const stored = { ...empty, noState: true, imei: '861234567890123' };
    const off = { ShowKmInfo: 'true' };
    expect(refusal(off, stored, stored)).toBeNull();
    expect(refusal(off, stored, { ...stored, noState: false })).toBe('NoState');
    expect(refusal(off, stored, { ...stored, imei: null })).toBe('SupportIoT');
    expect(refusal(off, stored, { ...stored, kmInfo: 'K9' })).toBeNull();
  });
});
