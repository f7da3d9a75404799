import { ResultCode } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import {
  attachmentPlaceRefusal,
  deletionRefusal,
  type LedgerDevice,
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
