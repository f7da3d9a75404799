import { api } from '@uiot/contracts';
import { bind, type RouteBinding } from '../../http/endpoints.ts';
import type { Services } from '../../services.ts';

/** Warn rules and the property catalogue of device types. */
export function alarmsRoutes(services: Services): RouteBinding[] {
  const { warnRules } = services.alarms;
  const done = () => null;
  return [
    bind(api.deviceProperty.queryByType, ({ query }) => warnRules.properties(query.deviceTypeId)),
    bind(api.deviceProperty.save, ({ body }) => warnRules.createProperty(body)),
    bind(api.deviceProperty.update, ({ body }) => warnRules.updateProperty(body).then(done)),
    bind(api.deviceProperty.del, ({ query }) => warnRules.removeProperty(query.id).then(done)),

    bind(api.warnRule.queryPage, ({ query: { name, deviceTypeId, ...page } }) =>
      warnRules.query({ name, deviceTypeId }, page),
    ),
    bind(api.warnRule.save, ({ body }) => warnRules.create(body)),
    bind(api.warnRule.update, ({ body }) => warnRules.update(body).then(done)),
    bind(api.warnRule.del, ({ query }) => warnRules.remove(query.id).then(done)),
  ];
}
