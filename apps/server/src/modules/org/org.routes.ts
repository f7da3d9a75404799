import { api } from '@uiot/contracts';
import { bind, type RouteBinding } from '../../http/endpoints.ts';
import type { Services } from '../../services.ts';
import { staffRoutes } from './staff.routes.ts';

export function orgRoutes(services: Services): RouteBinding[] {
  const { departments, roles, grants } = services.org;
  return [
    bind(api.department.getTree, () => departments.tree()),
    bind(api.department.save, ({ body }) => departments.create(body)),
    bind(api.department.update, async ({ body }) => {
      await departments.update(body);
      return null;
    }),
    bind(api.department.del, async ({ query }) => {
      await departments.remove(query.id);
      return null;
    }),

    bind(api.role.queryPage, ({ query }) => roles.query(query)),
    bind(api.role.getAll, () => roles.all()),
    bind(api.role.save, ({ body }) => roles.create(body)),
    bind(api.role.update, async ({ body }) => {
      await roles.update(body);
      return null;
    }),
    bind(api.role.del, async ({ query }) => {
      await roles.remove(query.id);
      return null;
    }),

    bind(api.permission.getGrants, ({ query }) => grants.get(query)),
    bind(api.permission.saveGrants, async ({ body }) => {
      await grants.save(body, body.keys);
      return null;
    }),

    ...staffRoutes(services),
  ];
}
