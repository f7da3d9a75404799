import { Readable } from 'node:stream';
import { api } from '@uiot/contracts';
import type { FastifyReply } from 'fastify';
import { bind, type RouteBinding } from '../../http/endpoints.ts';
import type { Services } from '../../services.ts';
import type { CsvExport } from './log-query.service.ts';

/** Sends a CSV file itself (not the envelope): the endpoint wrapper leaves a reply that is sent alone. */
function sendCsv(reply: FastifyReply, csv: CsvExport): FastifyReply {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${csv.fileName}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(csv.content));
}

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
