import {
  distinctIssues,
  type Endpoint,
  type EndpointResult,
  type FieldIssue,
  issueParams,
  ResultCode,
  translateValidation,
} from '@uiot/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ReceivedUpload } from '../infra/files/file.service.ts';
import { AppError } from './app-error.ts';
import { ok } from './envelope.ts';
import { FILE_ANSWER_HEADERS } from './file-reply.ts';
import { bearerToken } from './guard.ts';
import { MAX_NUL_FINDINGS, nulPaths } from './nul-text.ts';
import type { OpLogRecorder } from './op-log-hook.ts';
import type { BoardViewer, SessionUser } from './request-context.ts';
import { describeUpload, installMultipart, receiveUpload, uploadKindOf } from './upload.ts';

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
type QueryOf<E> = E extends Endpoint<infer Q, z.ZodType | undefined, z.ZodType> ? Parsed<Q> : never;
type BodyOf<E> = E extends Endpoint<z.ZodType | undefined, infer B, z.ZodType> ? Parsed<B> : never;

export interface HandlerContext<E extends Endpoint> {
  query: QueryOf<E>;
  body: BodyOf<E>;
  /** The file of an upload endpoint, read and typed (not stored yet); see `uploaded`. */
  upload: ReceivedUpload | undefined;
  /** The signed-in user; null only on public endpoints without a token. */
  user: SessionUser | null;
  req: FastifyRequest;
  reply: FastifyReply;
}

/**
 * Resolves with the envelope's `data`, or with `ctx.reply` after sending the answer itself (a file such
 * as a CSV export): that answer then goes out as it is, without the envelope.
 */
export type EndpointHandler<E extends Endpoint> = (
  ctx: HandlerContext<E>,
) => Promise<EndpointResult<E> | FastifyReply>;

export interface BindingHooks {
  /** Runs before the body is read (a shared secret): a caller it refuses costs no parsing. */
  beforeBody?: (req: FastifyRequest) => void | Promise<void>;
  /**
   * Told of a call refused before its handler ran: by `beforeBody`, the body parser (size, type, nesting,
   * JSON), the guard or the input check. For counting; the answer is the error handler's.
   */
  onRefused?: (req: FastifyRequest, error: Error) => void;
}

export interface RouteBinding extends BindingHooks {
  endpoint: Endpoint;
  handler: EndpointHandler<Endpoint>;
}

/** Binds a handler to an endpoint of the contract; the server registers nothing else under /api. */
export function bind<E extends Endpoint>(
  endpoint: E,
  handler: EndpointHandler<E>,
  hooks: BindingHooks = {},
): RouteBinding {
  return { ...hooks, endpoint, handler: handler as unknown as EndpointHandler<Endpoint> };
}

/** The signed-in user of a non-public endpoint (the guard has already refused anonymous calls). */
export function signedIn(ctx: { user: SessionUser | null }): SessionUser {
  if (!ctx.user) throw new AppError(ResultCode.Unauthenticated);
  return ctx.user;
}

/** The display session of a control-room board endpoint (the guard has already refused any other call). */
export function boardViewer(ctx: { req: FastifyRequest }): BoardViewer {
  if (!ctx.req.alarmBoard) throw new AppError(ResultCode.Unauthenticated);
  return ctx.req.alarmBoard;
}

/**
 * The token a non-public call was made with (a staff session's or a display session's), which browsers
 * also sign in to the broker with.
 */
export function callToken(ctx: { req: FastifyRequest }): string {
  const token = bearerToken(ctx.req);
  if (!token) throw new AppError(ResultCode.Unauthenticated);
  return token;
}

/** The file of an upload endpoint (read before its handler runs). */
export function uploaded(ctx: { upload: ReceivedUpload | undefined }): ReceivedUpload {
  if (!ctx.upload) throw new AppError(ResultCode.UploadMalformed);
  return ctx.upload;
}

export function toFieldIssues(
  error: z.ZodError,
  lang: Parameters<typeof translateValidation>[1],
): FieldIssue[] {
  return distinctIssues(error.issues).map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: translateValidation(issue.message, lang, issueParams(issue)),
  }));
}

/**
 * Refuses input holding U+0000, which no text column can store: every string and key of the query and the
 * body, whether its schema reads it or not, each one found named as a field issue.
 */
function refuseNul(req: FastifyRequest): void {
  const paths = [...nulPaths(req.query), ...nulPaths(req.body)].slice(0, MAX_NUL_FINDINGS);
  if (paths.length === 0) return;
  throw AppError.invalid(paths.map((path) => ({ path, message: translateValidation('v.nul', req.lang) })));
}

function parse<S extends z.ZodType | undefined>(schema: S, value: unknown, req: FastifyRequest): Parsed<S> {
  if (!schema) return undefined as Parsed<S>;
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw AppError.invalid(toFieldIssues(result.error, req.lang));
  return result.data as Parsed<S>;
}

/** The requests whose handler has run: what fails after that is not a refusal of the call. */
const handlerRan = new WeakSet<FastifyRequest>();

/** A file answer's headers, whatever the handler sent (the envelope of a failure included). */
async function fileAnswerHeaders(_req: FastifyRequest, reply: FastifyReply): Promise<void> {
  for (const [name, value] of Object.entries(FILE_ANSWER_HEADERS)) void reply.header(name, value);
}

/**
 * Registers the bound endpoints: input parsed by the contract's schemas (an upload's file read and typed),
 * the operation log row of a mutating call written, then the handler run; output wrapped in the envelope
 * unless the handler has answered itself. Upload endpoints sit in a context of their own, the only one
 * that reads multipart bodies.
 */
export function registerEndpoints(
  app: FastifyInstance,
  bindings: RouteBinding[],
  opLog: OpLogRecorder,
  readsMultipart = false,
): void {
  const uploads = bindings.filter((b) => b.endpoint.upload);
  if (!readsMultipart && uploads.length > 0) {
    void app.register(async (context) => {
      await installMultipart(context);
      registerEndpoints(context, uploads, opLog, true);
    });
  }
  for (const { endpoint, handler, beforeBody, onRefused } of bindings) {
    if (Boolean(endpoint.upload) !== readsMultipart) continue;
    app.route({
      method: endpoint.method,
      url: `/api${endpoint.path}`,
      config: { endpoint },
      schema: {
        summary: endpoint.summary,
        tags: [endpoint.module],
        ...(endpoint.access === 'public' ? {} : { security: [{ bearer: [] }] }),
        ...(endpoint.query ? { querystring: endpoint.query } : {}),
        ...(endpoint.body ? { body: endpoint.body } : {}),
      },
      ...(beforeBody
        ? {
            preParsing: async (req: FastifyRequest) => {
              await beforeBody(req);
            },
          }
        : {}),
      ...(onRefused
        ? {
            onError: async (req: FastifyRequest, _reply: FastifyReply, error: Error) => {
              if (!handlerRan.has(req)) onRefused(req, error);
            },
          }
        : {}),
      ...(endpoint.fileAnswer ? { onSend: fileAnswerHeaders } : {}),
      handler: async (req, reply) => {
        refuseNul(req);
        const query = parse(endpoint.query, req.query, req);
        const upload = endpoint.upload ? await receiveUpload(req, uploadKindOf(endpoint, query)) : undefined;
        const body = upload ? undefined : parse(endpoint.body, req.body, req);
        // An upload is described by kind, name, size and SHA-256, never by its content.
        await opLog.begin(req, endpoint, { query, body: upload ? { file: describeUpload(upload) } : body });
        handlerRan.add(req);
        const data = await handler({
          query,
          body,
          upload,
          user: req.user,
          req,
          reply,
        } as HandlerContext<Endpoint>);
        req.resultCode = ResultCode.Ok;
        if (data === reply || reply.sent) return reply;
        return ok(data ?? null, req.lang);
      },
    });
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    endpoint?: Endpoint;
  }
}
