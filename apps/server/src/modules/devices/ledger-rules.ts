import {
  type FeatureFlagValues,
  type FeatureSwitch,
  type FlaggedFields,
  flagOn,
  ResultCode,
} from '@uiot/contracts';

/** What the rules of the ledger look at in a device. */
export interface LedgerDevice {
  regist: boolean;
  mainDeviceId: string | null;
}

/**
 * Whether a main device may go (spec §5: a registered device cannot be deleted until unregistered); its
 * attached devices must be deleted first. Attached devices go by their own action.
 */
export function deletionRefusal(d: LedgerDevice, attachmentCount: number): ResultCode | null {
  if (d.mainDeviceId !== null) return ResultCode.NotAMainDevice;
  if (d.regist) return ResultCode.DeviceRegistered;
  if (attachmentCount > 0) return ResultCode.DeviceHasAttachments;
  return null;
}

/** What identifies a device to the device bus: its credential's username, its DevEUI, its IMEI. */
export interface DeviceIdentity {
  code: string | null;
  devEUI: string | null;
  imei: string | null;
}

/**
 * The identifiers an edit would change on a registered device: none may (unregister it first). The lock
 * knows itself by them and its credential is issued to them; changed, the lock in the field would be shut
 * out (or another take its place) with nothing to say why.
 */
export function registeredIdentityChanges(
  current: LedgerDevice & DeviceIdentity,
  edited: {
    code?: string | null | undefined;
    devEUI?: string | null | undefined;
    imei?: string | null | undefined;
  },
): (keyof DeviceIdentity)[] {
  if (!current.regist) return [];
  return (['code', 'devEUI', 'imei'] as const).filter((field) => (edited[field] ?? null) !== current[field]);
}

/**
 * Register (`wanted` true) or cancel the registration (spec §4). Only main devices are registered;
 * attached devices follow theirs.
 */
export function registrationRefusal(d: LedgerDevice, wanted: boolean): ResultCode | null {
  if (d.mainDeviceId !== null) return ResultCode.NotAMainDevice;
  if (wanted && d.regist) return ResultCode.DeviceAlreadyRegistered;
  if (!wanted && !d.regist) return ResultCode.DeviceNotRegistered;
  return null;
}

/** The IMEI of a registered device is known to its platform: unregister it before fitting a new module. */
export function resetImeiRefusal(d: LedgerDevice): ResultCode | null {
  return d.regist ? ResultCode.UnregisterFirst : null;
}

/**
 * Where an attached device may hang: under an existing main device only (an attached device, itself
 * included, is never a main device).
 */
export function attachmentPlaceRefusal(main: LedgerDevice | undefined): ResultCode | null {
  return !main || main.mainDeviceId !== null ? ResultCode.NotAMainDevice : null;
}

/** A field's value as the flagged-field rule compares it: not given, cleared and switched off are alike. */
const fieldText = (value: unknown) =>
  value === null || value === undefined || value === false ? '' : String(value);

/**
 * The flag (spec §6) of a field that a save would change while the flag is off, or null: the console does
 * not offer such a field then (it sends back what the device has), and the server does not accept it.
 * `before` is the device as stored, null for a new one (whose fields are all empty).
 */
export function flaggedFieldRefusal<F extends object>(
  flags: FeatureFlagValues,
  fields: FlaggedFields<F>,
  before: Partial<Record<keyof F, unknown>> | null,
  after: F,
): FeatureSwitch | null {
  for (const [flag, names] of Object.entries(fields) as [FeatureSwitch, readonly (keyof F & string)[]][]) {
    if (flagOn(flags, flag)) continue;
    if (names.some((name) => fieldText(before?.[name]) !== fieldText(after[name]))) return flag;
  }
  return null;
}
