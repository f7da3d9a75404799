import { ResultCode } from '@uiot/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from './app-error.ts';
import { failure } from './envelope.ts';

/** Every failure leaves as the envelope with a translated message (ARCHITECTURE §3). */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, req, reply) => {
    if (error instanceof AppError) {
      req.resultCode = error.code;
      if (error.code === ResultCode.LoginLocked && typeof error.params.seconds === 'number') {
        void reply.header('retry-after', String(error.params.seconds));
      }
      return reply.status(error.httpStatus).send(failure(error.code, req.lang, error.params, error.data));
    }
    const status = error.statusCode ?? 500;
    if (status === 413) {
      req.resultCode = ResultCode.PayloadTooLarge;
      return reply.status(413).send(failure(ResultCode.PayloadTooLarge, req.lang));
    }
    if (status >= 400 && status < 500) {
      req.resultCode = ResultCode.InvalidInput;
      return reply.status(400).send(failure(ResultCode.InvalidInput, req.lang));
    }
    req.log.error({ err: error }, 'request failed');
    req.resultCode = ResultCode.Internal;
    return reply.status(500).send(failure(ResultCode.Internal, req.lang));
  });
}
