import { defineModule } from '../../module.ts';
import { holdDeviceTypes } from './device-type.repository.ts';
import { devicesRoutes } from './devices.routes.ts';
import { createDevicesServices } from './devices.services.ts';

export type { DeviceService } from './device.service.ts';
export { notOperable } from './device-operation.guard.ts';
export {
  type DeviceOperator,
  mayOperateDeviceType,
  type OperatedType,
  SERVER_OPERATOR,
} from './device-operation.ts';
export { deviceTypeExists, holdDeviceTypes } from './device-type.repository.ts';
export { devicesRoutes } from './devices.routes.ts';
export { createDevicesServices, type DevicesServices } from './devices.services.ts';
export { inUnitTree, ofTypeTree } from './ledger-query.ts';

/** The device ledger, device types, transfers and replacements. */
export const devicesModule = defineModule({
  name: 'devices',
  needs: ['params', 'deviceCredentials'],
  build: ({ db }, { params, deviceCredentials }) => ({
    devices: createDevicesServices(db, params, deviceCredentials),
    // Lent to the org module, which asks before a station's grants go.
    holdDeviceTypes,
  }),
  routes: (services) => devicesRoutes(services),
});
