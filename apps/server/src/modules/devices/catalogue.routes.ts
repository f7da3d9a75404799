import { api } from '@uiot/contracts';
import { bind, type RouteBinding, signedIn } from '../../http/endpoints.ts';
import type { Services } from '../../services.ts';

/** Device types and intervals, keys and permanent device passwords. */
export function catalogueRoutes(services: Services): RouteBinding[] {
  const { types, keys, passwords } = services.devices;
  return [
    bind(api.deviceType.getTree, () => types.tree()),
    bind(api.deviceType.save, ({ body }) => types.create(body)),
    bind(api.deviceType.update, async ({ body }) => {
      await types.update(body);
      return null;
    }),
    bind(api.deviceType.del, async ({ query }) => {
      await types.remove(query.id);
      return null;
    }),
    bind(api.deviceType.updateInterval, async ({ body }) => {
      await types.updateInterval(body);
      return null;
    }),
    bind(api.key.queryPage, ({ query }) => keys.query(query)),
    bind(api.key.save, ({ body }) => keys.create(body)),
    bind(api.key.update, async ({ body }) => {
      await keys.update(body);
      return null;
    }),
    bind(api.key.del, async ({ query }) => {
      await keys.remove(query.id);
      return null;
    }),
    bind(api.devicePassword.queryPage, ({ query }) => passwords.query(query)),
    bind(api.devicePassword.view, ({ query }) => passwords.view(query.deviceId)),
    bind(api.devicePassword.save, async (ctx) => {
      await passwords.save(ctx.body, signedIn(ctx).staffName);
      return null;
    }),
  ];
}
