import type { Db } from '../../db/client.ts';
import { UnitService } from './unit.service.ts';

/** The services of the device ledger; operation units for now. */
export interface DevicesServices {
  units: UnitService;
}

export function createDevicesServices(db: Db): DevicesServices {
  return { units: new UnitService(db) };
}
