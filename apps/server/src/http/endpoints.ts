import {
  type Endpoint,
  type EndpointResult,
  type FieldIssue,
  ResultCode,
  translateValidation,
} from '@uiot/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError } from './app-error.ts';
import { ok } from './envelope.ts';
import type { SessionUser } from './request-context.ts';

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
type QueryOf<E> = E extends Endpoint<infer Q, z.ZodType | undefined, z.ZodType> ? Parsed<Q> : never;
type BodyOf<E> = E extends Endpoint<z.ZodType | undefined, infer B, z.ZodType> ? Parsed<B> : never;

export interface HandlerContext<E extends Endpoint> {
  query: QueryOf<E>;
  body: BodyOf<E>;
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

export interface RouteBinding {
  endpoint: Endpoint;
  handler: EndpointHandler<Endpoint>;
}

/** Binds a handler to an endpoint of the contract; the server registers nothing else under /api. */
export function bind<E extends Endpoint>(endpoint: E, handler: EndpointHandler<E>): RouteBinding {
  return { endpoint, handler: handler as unknown as EndpointHandler<Endpoint> };
}

/** The signed-in user of a non-public endpoint (the guard has already refused anonymous calls). */
export function signedIn(ctx: { user: SessionUser | null }): SessionUser {
  if (!ctx.user) throw new AppError(ResultCode.Unauthenticated);
  return ctx.user;
}

export function toFieldIssues(
  error: z.ZodError,
  lang: Parameters<typeof translateValidation>[1],
): FieldIssue[] {
  return error.issues.map((issue) => {
    const max = 'maximum' in issue ? Number(issue.maximum) : undefined;
    return {
      path: issue.path.map(String).join('.'),
      message: translateValidation(issue.message, lang, max === undefined ? undefined : { max }),
    };
  });
}

function parse<S extends z.ZodType | undefined>(schema: S, value: unknown, req: FastifyRequest): Parsed<S> {
  if (!schema) return undefined as Parsed<S>;
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw AppError.invalid(toFieldIssues(result.error, req.lang));
  return result.data as Parsed<S>;
}

/**
 * Registers the bound endpoints: input parsed by the contract's schemas, output wrapped in the envelope
 * unless the handler has answered itself.
 */
export function registerEndpoints(app: FastifyInstance, bindings: RouteBinding[]): void {
  for (const { endpoint, handler } of bindings) {
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
      handler: async (req, reply) => {
        const query = parse(endpoint.query, req.query, req);
        const body = parse(endpoint.body, req.body, req);
        const data = await handler({ query, body, user: req.user, req, reply });
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
