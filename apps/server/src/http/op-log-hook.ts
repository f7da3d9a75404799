import { isMutating } from '@uiot/contracts';
import type { FastifyInstance } from 'fastify';
import { describeArgs, type OpLogService } from '../modules/admin/op-log.service.ts';

/** Writes the operation log (spec §3) for every mutating call, after the response is sent. */
export function installOpLog(app: FastifyInstance, opLog: OpLogService): void {
  app.addHook('onResponse', async (req) => {
    const endpoint = req.routeOptions.config.endpoint;
    if (!endpoint || !isMutating(endpoint)) return;
    const secretFields = endpoint.secretFields ?? [];
    try {
      await opLog.write({
        ipAddr: req.ip,
        methodArgs: describeArgs({ ...(req.query as object), ...(req.body as object) }, secretFields),
        methodDesc: endpoint.summary,
        methodName: `${endpoint.module}${endpoint.path}`,
        methodType: endpoint.method,
        url: req.url.split('?')[0] ?? req.url,
        userId: req.user?.staffId ?? null,
        userName: req.user?.staffName ?? null,
        resultCode: req.resultCode ?? null,
      });
    } catch (error) {
      req.log.error({ err: error, url: endpoint.path }, 'operation log not written');
    }
  });
}
