import { api } from '@uiot/contracts';
import { bind, type RouteBinding, signedIn } from '../../http/endpoints.ts';
import type { Services } from '../../services.ts';

/** Fixed authorisations (/task/fixed-authorize). */
export function tasksRoutes({ tasks }: Services): RouteBinding[] {
  const { authorizations } = tasks;
  const done = () => null;
  return [
    bind(api.fixedAuthorization.queryPage, ({ query: { objectType, keyword, deviceId, state, ...page } }) =>
      authorizations.query({ objectType, keyword, deviceId, state }, page),
    ),
    bind(api.fixedAuthorization.save, (ctx) => authorizations.create(ctx.body, signedIn(ctx))),
    bind(api.fixedAuthorization.update, ({ body }) => authorizations.update(body).then(done)),
    bind(api.fixedAuthorization.del, ({ query }) => authorizations.remove(query.id).then(done)),
  ];
}
