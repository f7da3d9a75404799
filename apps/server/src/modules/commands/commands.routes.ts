import { api } from '@uiot/contracts';
import { bind, type RouteBinding } from '../../http/endpoints.ts';
import type { Services } from '../../services.ts';

/** Remote control records. */
export function commandRoutes({ commandRecords }: Services): RouteBinding[] {
  return [bind(api.deviceCommand.queryPage, ({ query, req }) => commandRecords.query(query, req.lang))];
}
