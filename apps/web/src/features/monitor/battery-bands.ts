import { useQuery } from '@tanstack/react-query';
import { api, type BatteryBandScale, DEFAULT_BATTERY_BANDS } from '@uiot/contracts';
import { endpointQuery } from '../../lib/request/index.ts';

/**
 * The monitor's battery bands as the server derives them from the power levels (docs/alarms.md); the fixed
 * 20 / 60 % bands until they are known or while no power level is defined.
 */
export function useBatteryBands(): BatteryBandScale {
  const bands = useQuery(
    endpointQuery(api.powerLevel.batteryBands, undefined, { noOverlay: true, silent: true }),
  );
  return bands.data ?? DEFAULT_BATTERY_BANDS;
}
