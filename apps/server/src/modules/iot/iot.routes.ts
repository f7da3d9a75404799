import { api } from '@uiot/contracts';
import type { NbPlatform } from '@uiot/device-protocol';
import type { FastifyRequest } from 'fastify';
import { sendCsv } from '../../http/csv-reply.ts';
import { bind, type RouteBinding, signedIn } from '../../http/endpoints.ts';
import type { Services } from '../../services.ts';

function callbackToken(req: FastifyRequest): string | undefined {
  const value = req.headers['x-callback-token'];
  return typeof value === 'string' ? value : undefined;
}

/** Runtime data, telemetry records and the NB-IoT platforms' callbacks. */
export function iotRoutes({ iot }: Services): RouteBinding[] {
  const callback = (platform: NbPlatform) => (input: { body: unknown; req: FastifyRequest }) =>
    iot.nbCallbacks.receive(
      platform,
      callbackToken(input.req),
      input.body,
      JSON.stringify(input.body ?? null),
    );
  return [
    bind(api.runtime.ingestStats, async () => iot.ingest.snapshot()),
    bind(api.runtime.queryPage, (ctx) => iot.runtime.query(ctx.query, signedIn(ctx))),
    bind(api.runtime.getByDeviceId, (ctx) => iot.runtime.byDevice(ctx.query.deviceId, signedIn(ctx))),
    bind(api.runtime.summary, () => iot.runtime.summary()),
    bind(api.deviceHistory.queryPage, ({ query, req }) => iot.history.query(query, req.lang)),
    bind(api.deviceHistory.export, async ({ query, req, reply }) =>
      sendCsv(reply, await iot.history.export(query, req.lang)),
    ),
    bind(api.nbiot.chinaTelecom, callback('ChinaTelecom')),
    bind(api.nbiot.chinaUnicom, callback('ChinaUnicom')),
    bind(api.nbiot.chinaMobile, callback('ChinaMobile')),
  ];
}
