import { api } from '@uiot/contracts';
import { sendCsv } from '../../http/csv-reply.ts';
import { bind, type RouteBinding } from '../../http/endpoints.ts';
import type { Services } from '../../services.ts';

export function logsRoutes({ logs }: Services): RouteBinding[] {
  return [
    bind(api.logs.queryOpLogPage, ({ query, req }) => logs.queryOpLogPage(query, req.lang)),
    bind(api.logs.queryLoginLogPage, ({ query, req }) => logs.queryLoginLogPage(query, req.lang)),
    bind(api.logs.exportOpLog, async ({ query, req, reply }) =>
      sendCsv(reply, await logs.exportOpLog(query, req.lang)),
    ),
    bind(api.logs.exportLoginLog, async ({ query, req, reply }) =>
      sendCsv(reply, await logs.exportLoginLog(query, req.lang)),
    ),
  ];
}
