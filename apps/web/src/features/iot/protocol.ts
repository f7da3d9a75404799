import type { DEVICE_PROTOCOLS } from '@uiot/contracts';
import type { TFunction } from 'i18next';

export type DeviceProtocol = (typeof DEVICE_PROTOCOLS)[number];

/** How a telemetry record reached the server (an adapter of ARCHITECTURE §5), as the console names it. */
export const protocolLabel = (t: TFunction, protocol: DeviceProtocol): string =>
  t(`iot:protocol.${protocol}`);
