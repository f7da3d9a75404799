import { api } from '@uiot/contracts';
import { bind, type RouteBinding, signedIn } from '../../http/endpoints.ts';
import type { Services } from '../../services.ts';
import { staffRoutes } from './staff.routes.ts';

export function orgRoutes(services: Services): RouteBinding[] {
  const { departments, roles, grants } = services.org;
  return [
    bind(api.department.getTree, () => departments.tree()),
    bind(api.department.save, ({ body }) => departments.create(body)),
    bind(api.department.update, async (ctx) => {
      await departments.update(signedIn(ctx), ctx.body);
      return null;
    }),
    bind(api.department.del, async ({ query }) => {
      await departments.remove(query.id);
      return null;
    }),

    bind(api.role.queryPage, ({ query }) => roles.query(query)),
    bind(api.role.getAll, (ctx) => roles.all(signedIn(ctx))),
    bind(api.role.save, ({ body }) => roles.create(body)),
    bind(api.role.update, async ({ body }) => {
      await roles.update(body);
      return null;
    }),
    bind(api.role.del, async ({ query }) => {
      await roles.remove(query.id);
      return null;
    }),

    bind(api.permission.getGrants, (ctx) => grants.get(signedIn(ctx), ctx.query)),
    bind(api.permission.saveGrants, async (ctx) => {
      await grants.save(signedIn(ctx), ctx.body, ctx.body.keys);
      return null;
    }),

    ...staffRoutes(services),
  ];
}
