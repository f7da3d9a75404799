export type { DeviceService } from './device.service.ts';
export { notOperable } from './device-operation.guard.ts';
export { type DeviceOperator, mayOperateDeviceType, SERVER_OPERATOR } from './device-operation.ts';
export { holdDeviceTypes } from './device-type.repository.ts';
export { devicesRoutes } from './devices.routes.ts';
export { createDevicesServices, type DevicesServices } from './devices.services.ts';
