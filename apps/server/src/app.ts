import { existsSync } from 'node:fs';
import path from 'node:path';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  BUILD_VERSION,
  NOTIFICATION_SOCKET_PATH,
  REALTIME_TIMING,
  ResultCode,
  type RuntimeConfig,
  resolveLanguage,
} from '@uiot/contracts';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { apiDocsTransform } from './http/api-docs.ts';
import { AppError } from './http/app-error.ts';
import { clientErrorHandler } from './http/client-errors.ts';
import { installCompression } from './http/compression.ts';
import { type RouteBinding, registerEndpoints } from './http/endpoints.ts';
import { failure } from './http/envelope.ts';
import { frameworkErrorHandler, installErrorHandler } from './http/error-handler.ts';
import { installFeatureGate } from './http/feature-gate.ts';
import { installGuard } from './http/guard.ts';
import { installJsonBodyParser } from './http/json-body.ts';
import { installOpLog } from './http/op-log-hook.ts';
import './http/request-context.ts';
import { securityHeaders, withoutUpgradeDirective } from './http/security-headers.ts';
import type { RouteDeps } from './module.ts';
import { type ConsoleBrokerLogins, staffBrokerLogins } from './modules/realtime/index.ts';
import { type Services, serverModules } from './services.ts';
import type { TlsMaterial } from './tls-files.ts';

/**
 * Routes outside the API contract, all public: the console's files, its runtime config and, only when
 * API_DOCS is on, the API docs.
 */
export const NON_CONTRACT_ROUTES = ['/config.json', '/api/docs', '/api/docs/*', '/*'] as const;

export interface AppDeps {
  config: Pick<Config, 'corsOrigins' | 'webDistDir' | 'mqttWsPort' | 'logLevel'> &
    Partial<Pick<Config, 'trustedProxies' | 'apiDocs'>>;
  /** Certificate and key (TLS_CERT, TLS_KEY): the app is served over HTTPS. */
  tls?: Pick<TlsMaterial, 'cert' | 'key'>;
  database: Pick<Database, 'ping'>;
  services: Services;
  busConnected: () => boolean;
  /** How browsers sign in to the broker (default: with their staff id, as the embedded broker expects). */
  brokerLogins?: ConsoleBrokerLogins;
  logger?: FastifyServerOptions['logger'];
  loggerInstance?: FastifyServerOptions['loggerInstance'];
}

const BODY_LIMIT = 1024 * 1024;
/** Path of the broker's WebSocket listener (the embedded broker's, or the operator's; docs/scale-out.md). */
const MQTT_WS_PATH = '/mqtt';

/** Whether a request URL (path and query) is under /api. */
export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

/** `tls`: the server speaks HTTPS, and the broker's WebSocket listener WSS (TLS_CERT, TLS_KEY). */
export function runtimeConfigFor(config: AppDeps['config'], tls: boolean): RuntimeConfig {
  return {
    system: {
      title: { 'zh-CN': 'UIOT 锁控管理平台', en: 'UIOT Lock Console', 'zh-TW': 'UIOT 鎖控管理平台' },
      errorLog: true,
      debug: false,
    },
    service: { url: '/api', timeout: 30_000 },
    websocket: { path: NOTIFICATION_SOCKET_PATH },
    mqttOptions: {
      port: config.mqttWsPort,
      path: MQTT_WS_PATH,
      keepalive: REALTIME_TIMING.mqttKeepaliveSeconds,
      reconnectPeriod: REALTIME_TIMING.mqttReconnectMs,
      connectTimeout: REALTIME_TIMING.mqttConnectTimeoutMs,
      clean: true,
      ssl: tls,
    },
    views: { sidebar: true, sidebarLogo: true, navbar: true, fixedHeader: true, tagsView: true },
  };
}

export function allBindings(
  services: Services,
  deps: Pick<AppDeps, 'database' | 'busConnected' | 'brokerLogins'>,
): RouteBinding[] {
  const routeDeps: RouteDeps = { ...deps, brokerLogins: deps.brokerLogins ?? staffBrokerLogins };
  return serverModules.flatMap((module) => module.routes?.(services, routeDeps) ?? []);
}

/** The methods each contract path answers, for the 405 of another method. */
function methodsByPath(bindings: readonly RouteBinding[]): Map<string, string[]> {
  const methods = new Map<string, string[]>();
  for (const { endpoint } of bindings) {
    const url = `/api${endpoint.path}`;
    const list = methods.get(url) ?? [];
    list.push(...(endpoint.method === 'GET' ? ['GET', 'HEAD'] : [endpoint.method]));
    methods.set(url, list);
  }
  return methods;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const trustedProxies = deps.config.trustedProxies ?? [];
  const runtimeConfig = runtimeConfigFor(deps.config, deps.tls !== undefined);
  /** Headers every answer carries, set before anything answers (errors of the router included). */
  const answerHeaders = (req: FastifyRequest, reply: FastifyReply) => {
    const headers = securityHeaders({
      secure: req.protocol === 'https',
      host: req.host,
      mqttWebSocket: { port: deps.config.mqttWsPort, path: MQTT_WS_PATH },
      notificationPath: NOTIFICATION_SOCKET_PATH,
    });
    for (const [name, value] of Object.entries(headers)) void reply.header(name, value);
    // API answers hold tokens, device secrets, one-time and lock passwords: no browser or proxy keeps
    // them. Refusals and errors carry it too; a route may not set it otherwise.
    if (isApiPath(req.url)) void reply.header('cache-control', 'no-store');
  };
  const app = Fastify({
    ...(deps.loggerInstance
      ? { loggerInstance: deps.loggerInstance }
      : { logger: deps.logger ?? { level: deps.config.logLevel } }),
    bodyLimit: BODY_LIMIT,
    // Requests arriving while the server closes are answered below, with the envelope.
    return503OnClosing: false,
    // Requests Node's HTTP parser refuses, and URLs the router cannot decode, are answered with the envelope.
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler(answerHeaders),
    // Only the configured proxies' X-Forwarded-* are believed (protocol, host, client address).
    trustProxy: trustedProxies.length > 0 ? trustedProxies : false,
    // The HTTPS server's instance has the same interface the app uses.
    ...(deps.tls ? { https: { cert: deps.tls.cert, key: deps.tls.key } } : {}),
  }) as unknown as FastifyInstance;

  // Input is parsed by the contract's zod schemas inside each route (see http/endpoints.ts); the schemas
  // on the routes serve the OpenAPI document only.
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  app.decorateRequest('lang', 'zh-CN');
  app.decorateRequest('resultCode', undefined);
  app.addHook('onRequest', async (req) => {
    req.lang = resolveLanguage(req.headers['accept-language']);
  });

  // Helmet sends the fixed headers; those that depend on how the console was reached are set per request.
  await app.register(helmet, {
    contentSecurityPolicy: false,
    strictTransportSecurity: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', async (req, reply) => answerHeaders(req, reply));
  // A request that reaches the server while it closes (on a kept-alive connection) is answered 503, for the
  // client or its load balancer to try another instance.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async () => {
    if (closing) throw new AppError(ResultCode.ServiceUnavailable);
  });
  await app.register(cors, {
    origin: deps.config.corsOrigins.length > 0 ? deps.config.corsOrigins : false,
    credentials: false,
    // A console served from another origin reads the server's clock from it (web lib/server-clock.ts).
    exposedHeaders: ['Date'],
  });
  // The API map is served only where API_DOCS allows it: by default it tells nobody what the API offers.
  if (deps.config.apiDocs) {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: 'UIOT Lock Console API', version: BUILD_VERSION },
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      },
      transform: apiDocsTransform,
    });
  }
  installErrorHandler(app);
  installJsonBodyParser(app);
  installGuard(app, deps.services.sessions, deps.services.alarms.board);
  installFeatureGate(app, deps.services.params);
  const opLog = installOpLog(app, deps.services.opLog);
  const bindings = allBindings(deps.services, deps);
  const contractMethods = methodsByPath(bindings);
  // API answers are compressed above a size threshold, in a context of their own: the console's files come
  // compressed from the build, and a file the build left as it is (too small, or an image) gains nothing.
  await app.register(async (api) => {
    await installCompression(api);
    if (deps.config.apiDocs) {
      await api.register(swaggerUi, {
        routePrefix: '/api/docs',
        staticCSP: true,
        transformStaticCSP: withoutUpgradeDirective,
      });
    }
    registerEndpoints(api, bindings, opLog);
  });

  app.get('/config.json', async (_req, reply) => {
    void reply.header('cache-control', 'no-cache');
    return runtimeConfig;
  });

  const indexHtml = path.join(deps.config.webDistDir, 'index.html');
  const hasConsole = existsSync(indexHtml);
  if (hasConsole) {
    const hashedFiles = path.resolve(deps.config.webDistDir, 'assets') + path.sep;
    await app.register(fastifyStatic, {
      root: deps.config.webDistDir,
      // Files are looked up per request, so a new build of the console is served without a restart.
      wildcard: true,
      // The build writes `.br` and `.gz` beside each file worth compressing; the best one the browser
      // accepts is sent, the file itself otherwise.
      preCompressed: true,
      // The caching of each file is set below, not send's default `public, max-age=0`.
      cacheControl: false,
      setHeaders: (res, filePath) => {
        // Files under assets/ are named by their content hash: a new build never changes one in place.
        const immutable = filePath.startsWith(hashedFiles);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        res.setHeader('vary', 'Accept-Encoding');
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '';
    const allowed = contractMethods.get(url);
    if (allowed) {
      void reply.header('allow', allowed.join(', '));
      return reply.status(405).send(failure(ResultCode.MethodNotAllowed, req.lang, { method: req.method }));
    }
    // API paths and missing build files are real 404s; every other GET is a route of the console.
    const isFile = url.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(url);
    if (isApiPath(url) || req.method !== 'GET' || !hasConsole || isFile) {
      return reply.status(404).send(failure(ResultCode.NotFound, req.lang));
    }
    // Client-side routes of the console.
    void reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });

  return app;
}
