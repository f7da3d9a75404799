import { api } from '@uiot/contracts';
import { bind, type RouteBinding } from '../../http/endpoints.ts';
import type { Services } from '../../services.ts';
import { catalogueRoutes } from './catalogue.routes.ts';
import { ledgerRoutes } from './ledger.routes.ts';
import { replacementRoutes } from './replacement.routes.ts';
import { transferRoutes } from './transfer/transfer.routes.ts';

export function devicesRoutes(services: Services): RouteBinding[] {
  const { units } = services.devices;
  return [
    bind(api.unit.getTree, () => units.tree()),
    bind(api.unit.save, ({ body }) => units.create(body)),
    bind(api.unit.update, async ({ body }) => {
      await units.update(body);
      return null;
    }),
    bind(api.unit.del, async ({ query }) => {
      await units.remove(query.id);
      return null;
    }),
    ...catalogueRoutes(services),
    ...ledgerRoutes(services),
    ...replacementRoutes(services),
    ...transferRoutes(services),
  ];
}
