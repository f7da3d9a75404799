import { useQuery } from '@tanstack/react-query';
import { api } from '@uiot/contracts';
import { endpointQuery } from '../../lib/request/index.ts';

/** The property catalogue of a device type (none while no type is chosen), loaded quietly. */
export function useDeviceProperties(deviceTypeId: string | null | undefined) {
  return useQuery({
    ...endpointQuery(
      api.deviceProperty.queryByType,
      { deviceTypeId: deviceTypeId ?? '' },
      { noOverlay: true, silent: true },
    ),
    enabled: Boolean(deviceTypeId),
  });
}
