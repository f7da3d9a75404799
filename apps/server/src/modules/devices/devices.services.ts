import type { Db } from '../../db/client.ts';
import type { ParamService } from '../params/index.ts';
import { AdjustValueService } from './adjust-value.service.ts';
import type { CredentialIssuer as DeviceCredentials } from './credential-issuer.ts';
import { DeviceService } from './device.service.ts';
import { DevicePasswordService } from './device-password.service.ts';
import { DeviceTypeService } from './device-type.service.ts';
import { KeyService } from './key.service.ts';
import { LockCodeService } from './lock-code.service.ts';
import { ReplacementService } from './replacement.service.ts';
import { TransferService } from './transfer/transfer.service.ts';
import { UnitService } from './unit.service.ts';

/** The services of the device ledger: units, types, devices and what hangs under them, keys, transfer. */
export interface DevicesServices {
  units: UnitService;
  types: DeviceTypeService;
  ledger: DeviceService;
  lockCodes: LockCodeService;
  adjustValues: AdjustValueService;
  replacements: ReplacementService;
  keys: KeyService;
  passwords: DevicePasswordService;
  transfer: TransferService;
}

export function createDevicesServices(
  db: Db,
  params: ParamService,
  credentials: DeviceCredentials,
): DevicesServices {
  return {
    units: new UnitService(db),
    types: new DeviceTypeService(db),
    ledger: new DeviceService(db, params, credentials),
    lockCodes: new LockCodeService(db),
    adjustValues: new AdjustValueService(db),
    replacements: new ReplacementService(db, params),
    keys: new KeyService(db),
    passwords: new DevicePasswordService(db),
    transfer: new TransferService(db, params),
  };
}
