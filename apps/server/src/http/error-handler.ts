import {
  type FieldIssue,
  type Lang,
  ResultCode,
  resolveLanguage,
  translateValidation,
} from '@uiot/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';
import { failure } from './envelope.ts';

/**
 * Field issues raised by services carry a validation key (`v.pwTooShort`); they are translated here, as
 * the schemas' issues are when parsed (translating an already translated message leaves it as it is).
 */
function translateIssues(data: unknown, lang: Lang): unknown {
  if (!Array.isArray(data)) return data;
  return data.map((issue: unknown) => {
    if (!issue || typeof issue !== 'object' || !('message' in issue) || typeof issue.message !== 'string') {
      return issue;
    }
    const { params, ...rest } = issue as FieldIssue;
    return { ...rest, message: translateValidation(issue.message, lang, params) };
  });
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
    if (status === 415) {
      // An upload endpoint takes multipart only, every other one JSON only.
      const code = req.routeOptions.config?.endpoint?.upload
        ? ResultCode.UploadMalformed
        : ResultCode.UnsupportedContentType;
      req.resultCode = code;
      return reply.status(415).send(failure(code, req.lang));
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

/**
 * Fastify's `frameworkErrors`: a path the router cannot decode (bad percent-encoding: 400) or a path
 * parameter over its length (414), answered with the envelope. No hook has run for these: the language
 * and the answer's headers are set here.
 */
export function frameworkErrorHandler(answerHeaders: (req: FastifyRequest, reply: FastifyReply) => void) {
  return (error: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    req.lang = resolveLanguage(req.headers['accept-language']);
    answerHeaders(req, reply);
    void reply.header('x-content-type-options', 'nosniff');
    let status = 500;
    let code: ResultCode = ResultCode.Internal;
    if (error.code === 'FST_ERR_BAD_URL') [status, code] = [400, ResultCode.MalformedRequest];
    else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') [status, code] = [414, ResultCode.RequestTooLarge];
    else req.log.error({ err: error }, 'request failed in the router');
    req.resultCode = code;
    void reply.status(status).send(failure(code, req.lang));
  };
}
