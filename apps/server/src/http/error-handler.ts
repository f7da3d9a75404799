import { type Lang, ResultCode, translateValidation } from '@uiot/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from './app-error.ts';
import { failure } from './envelope.ts';

/**
 * Field issues raised by services carry a validation key (`v.pwTooShort`); they are translated here, as
 * the schemas' issues are when parsed (translating an already translated message leaves it as it is).
 */
function translateIssues(data: unknown, lang: Lang): unknown {
  if (!Array.isArray(data)) return data;
  return data.map((issue: unknown) =>
    issue && typeof issue === 'object' && 'message' in issue && typeof issue.message === 'string'
      ? { ...issue, message: translateValidation(issue.message, lang) }
      : issue,
  );
}

/** Every failure leaves as the envelope with a translated message (ARCHITECTURE §3). */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, req, reply) => {
    if (error instanceof AppError) {
      req.resultCode = error.code;
      if (error.httpStatus === 429 && typeof error.params.seconds === 'number') {
        void reply.header('retry-after', String(error.params.seconds));
      }
      const data =
        error.code === ResultCode.InvalidInput ? translateIssues(error.data, req.lang) : error.data;
      return reply.status(error.httpStatus).send(failure(error.code, req.lang, error.params, data));
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
