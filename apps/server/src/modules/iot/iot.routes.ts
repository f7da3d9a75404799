import { api } from '@uiot/contracts';
import type { NbPlatform } from '@uiot/device-protocol';
import type { FastifyRequest } from 'fastify';
import { sendCsv } from '../../http/csv-reply.ts';
import { bind, type RouteBinding, signedIn } from '../../http/endpoints.ts';
import type { Services } from '../../services.ts';

type NbCallbackEndpoint = (typeof api.nbiot)[keyof typeof api.nbiot];

function callbackToken(req: FastifyRequest): string | undefined {
  const value = req.headers['x-callback-token'];
  return typeof value === 'string' ? value : undefined;
}

/** Runtime data, telemetry records and the NB-IoT platforms' callbacks. */
export function iotRoutes({ iot }: Services): RouteBinding[] {
  // The platform's secret is checked before its body is read; the body is kept as the text received.
  const callback = (endpoint: NbCallbackEndpoint, platform: NbPlatform) =>
    bind(endpoint, ({ body, req }) => iot.nbCallbacks.receive(platform, body, req.jsonText ?? ''), {
      beforeBody: (req) => iot.nbCallbacks.authenticate(platform, callbackToken(req)),
      onRefused: (_req, error) => iot.nbCallbacks.countRefusal(platform, error),
    });
  return [
    bind(api.runtime.ingestStats, async () => iot.ingest.snapshot()),
    bind(api.runtime.queryPage, (ctx) => iot.runtime.query(ctx.query, signedIn(ctx))),
    bind(api.runtime.getByDeviceId, (ctx) => iot.runtime.byDevice(ctx.query.deviceId, signedIn(ctx))),
    bind(api.runtime.summary, () => iot.runtime.summary()),
    bind(api.deviceHistory.queryPage, ({ query, req }) => iot.history.query(query, req.lang)),
    bind(api.deviceHistory.export, async ({ query, req, reply }) =>
      sendCsv(reply, await iot.history.export(query, req.lang)),
    ),
    callback(api.nbiot.chinaTelecom, 'ChinaTelecom'),
    callback(api.nbiot.chinaUnicom, 'ChinaUnicom'),
    callback(api.nbiot.chinaMobile, 'ChinaMobile'),
  ];
}
