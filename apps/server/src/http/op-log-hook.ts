import { type Endpoint, isMutating, ResultCode } from '@uiot/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { callInput, describeArgs, type OpLogService } from '../modules/admin/index.ts';
import { AppError } from './app-error.ts';

/** Writes the operation log row of a call whose input has been validated, before the handler runs. */
export interface OpLogRecorder {
  /** Resolves once the row is written; a call whose row cannot be written is refused (500) and not run. */
  begin(req: FastifyRequest, endpoint: Endpoint, input: { query: unknown; body: unknown }): Promise<void>;
}

/**
 * The operation log (spec §3) of every mutating call: the row describing the validated input is written
 * ahead of the change, so no change is ever made without its row; after the answer it is completed with the
 * result code and, where the handler named one (the sign-in), the actor. A call refused before its handler
 * (unreadable or invalid input, no session, no permission) changed nothing and writes no row.
 */
export function installOpLog(app: FastifyInstance, opLog: OpLogService): OpLogRecorder {
  app.decorateRequest('opLogActor', null);
  app.decorateRequest('opLogId', null);
  app.addHook('onResponse', async (req) => {
    if (req.opLogId === null) return;
    try {
      await opLog.complete(req.opLogId, {
        resultCode: req.resultCode ?? ResultCode.Internal,
        ...(req.opLogActor ? { actor: req.opLogActor } : {}),
      });
    } catch (error) {
      req.log.error({ err: error, opLogId: req.opLogId }, 'operation log row not completed');
    }
  });
  return {
    async begin(req, endpoint, input) {
      if (!isMutating(endpoint)) return;
      try {
        req.opLogId = await opLog.begin({
          ipAddr: req.ip,
          methodArgs: describeArgs(callInput(input.query, input.body), endpoint.secretFields ?? []),
          methodDesc: endpoint.summary,
          methodName: `${endpoint.module}${endpoint.path}`,
          methodType: endpoint.method,
          url: req.url.split('?')[0] ?? req.url,
          userId: req.user?.staffId ?? null,
          userName: req.user?.staffName ?? null,
        });
      } catch (error) {
        req.log.error({ err: error, url: endpoint.path }, 'operation log not written: the call is refused');
        throw new AppError(ResultCode.Internal);
      }
    },
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The operation log row of the call, once written. */
    opLogId: number | null;
  }
}
