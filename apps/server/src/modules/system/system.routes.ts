import { api, BUILD_VERSION, ResultCode } from '@uiot/contracts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import { bind, type RouteBinding } from '../../http/endpoints.ts';
import { DEFAULT_STATION } from '../../lib/station.ts';
import type { Services } from '../../services.ts';

export interface SystemProbes {
  database: Pick<Database, 'ping'>;
  busConnected: () => boolean;
}

export function systemRoutes({ params }: Services, probes: SystemProbes): RouteBinding[] {
  return [
    bind(api.system.health, async () => ({ status: 'ok' as const, version: BUILD_VERSION })),
    bind(api.system.ready, async () => {
      const status = { database: await probes.database.ping(), mqtt: probes.busConnected() };
      if (!status.database || !status.mqtt)
        throw new AppError(ResultCode.ServiceUnavailable, { data: status });
      return status;
    }),
    bind(api.system.getStationCode, async () => DEFAULT_STATION.id),
    bind(api.system.getSupportMultiLanguage, async () => params.getBoolean('SupportMultiLanguage')),
    bind(api.system.getLoginParams, async () => ({
      userRegister: await params.getBoolean('UserRegisterLorawan'),
    })),
    bind(api.system.getFeatureFlags, () => params.featureFlags()),
  ];
}
