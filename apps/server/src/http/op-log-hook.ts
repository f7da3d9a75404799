import { isMutating } from '@uiot/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { describeArgs, type OpLogService } from '../modules/admin/op-log.service.ts';
import type { OpLogActor } from './request-context.ts';

/** Who made the call: the actor a handler named (the sign-in), else the session's user, else nobody. */
function actorOf(req: FastifyRequest): OpLogActor {
  if (req.opLogActor) return req.opLogActor;
  return { userId: req.user?.staffId ?? null, userName: req.user?.staffName ?? null };
}

/** Writes the operation log (spec §3) for every mutating call, after the response is sent. */
export function installOpLog(app: FastifyInstance, opLog: OpLogService): void {
  app.decorateRequest('opLogActor', null);
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
        ...actorOf(req),
        resultCode: req.resultCode ?? null,
      });
    } catch (error) {
      req.log.error({ err: error, url: endpoint.path }, 'operation log not written');
    }
  });
}
