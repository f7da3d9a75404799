import { api } from '@uiot/contracts';
import { bind, type RouteBinding, signedIn } from '../../http/endpoints.ts';
import type { SessionUser } from '../../http/request-context.ts';
import type { Services } from '../../services.ts';

export function paramRoutes({ params }: Services): RouteBinding[] {
  const named = (name: string) => (ctx: { user: SessionUser | null }) =>
    params.readableValue(signedIn(ctx), name);
  return [
    bind(api.params.queryPageByName, ({ query }) => params.query(query)),
    bind(api.params.getAll, () => params.all()),
    bind(api.params.getById, ({ query }) => params.get(query.id)),
    bind(api.params.getByName, (ctx) => params.readableValue(signedIn(ctx), ctx.query.name)),
    bind(api.params.getMap, (ctx) => params.readableValuesOfClass(signedIn(ctx), ctx.query.clzName)),
    bind(api.params.getADCode, named('ADCode')),
    bind(api.params.getLngLat, named('LngLat')),
    bind(api.params.getMarkerSearchDistance, named('MarkerSearchDistance')),
    bind(api.params.getMobileAppRegist, named('MobileAppRegist')),
    bind(api.params.getTaskNeedAudit, named('TaskNeedAudit')),
    bind(api.params.save, ({ body }) => params.create(body)),
    bind(api.params.update, async ({ body }) => {
      await params.update(body);
      return null;
    }),
    bind(api.params.saveOrUpdate, (ctx) => params.saveOrUpdate(signedIn(ctx), ctx.body)),
    bind(api.params.del, async ({ query }) => {
      await params.remove(query.id);
      return null;
    }),
  ];
}
