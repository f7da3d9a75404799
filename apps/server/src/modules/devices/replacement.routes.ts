import { api } from '@uiot/contracts';
import { bind, type RouteBinding, signedIn } from '../../http/endpoints.ts';
import type { Services } from '../../services.ts';

/** One-click lock replacement: start, proceed (retry), and the latest procedure of a device. */
export function replacementRoutes(services: Services): RouteBinding[] {
  const { replacements } = services.devices;
  return [
    bind(api.lockReplacement.start, (ctx) => replacements.start(ctx.body, signedIn(ctx).staffName)),
    bind(api.lockReplacement.proceed, (ctx) => {
      const { staffId, staffName } = signedIn(ctx);
      return replacements.proceed(ctx.body.id, {
        staff: { id: staffId, name: staffName },
        commands: services.commands,
        credentials: services.deviceCredentials,
      });
    }),
    bind(api.lockReplacement.getByDevice, ({ query }) => replacements.latestForDevice(query.deviceId)),
  ];
}
