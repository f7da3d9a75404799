import { api } from '@uiot/contracts';
import { bind, type RouteBinding, signedIn } from '../../http/endpoints.ts';
import type { Services } from '../../services.ts';

/** One-click lock replacement: start, proceed (retry), and the latest procedure of a device. */
export function replacementRoutes(services: Services): RouteBinding[] {
  const { replacements } = services.devices;
  return [
    bind(api.lockReplacement.start, (ctx) => {
      const user = signedIn(ctx);
      return replacements.start(ctx.body, user.staffName, user);
    }),
    bind(api.lockReplacement.proceed, (ctx) => {
      const user = signedIn(ctx);
      return replacements.proceed(ctx.body.id, {
        staff: { id: user.staffId, name: user.staffName },
        operator: user,
        commands: services.commands,
        credentials: services.deviceCredentials,
      });
    }),
    bind(api.lockReplacement.getByDevice, ({ query }) => replacements.latestForDevice(query.deviceId)),
  ];
}
