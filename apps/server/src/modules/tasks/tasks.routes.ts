import { api, CLIENT_HEADER } from '@uiot/contracts';
import type { FastifyRequest } from 'fastify';
import { sendCsv } from '../../http/csv-reply.ts';
import { bind, type RouteBinding, signedIn } from '../../http/endpoints.ts';
import { sendStoredFile } from '../../http/file-reply.ts';
import type { SessionUser } from '../../http/request-context.ts';
import type { Services } from '../../services.ts';

/**
 * Lock tasks (/task/lock-task), fixed authorisations (/task/fixed-authorize), operation records and remote
 * opening and closing.
 */
export function tasksRoutes({ tasks }: Services): RouteBinding[] {
  const { authorizations, lockTasks, operations, clients } = tasks;
  /** The client a client call names in its header (checked against the signed-in staff member). */
  const callingClient = (ctx: { req: FastifyRequest; user: SessionUser | null }) => {
    const header = ctx.req.headers[CLIENT_HEADER];
    return clients.callingClient(typeof header === 'string' ? header : undefined, signedIn(ctx));
  };
  const done = () => null;
  return [
    bind(api.lockTask.queryPage, (ctx) => {
      const { keyword, state, scope, ...page } = ctx.query;
      return lockTasks.query({ keyword, state, scope }, page, signedIn(ctx));
    }),
    bind(api.home.getTodayTask, (ctx) => lockTasks.today(ctx.query.limit, signedIn(ctx))),
    bind(api.home.getTodayDeviceOp, ({ query }) => operations.today(query.limit)),
    bind(api.lockTask.getById, (ctx) => lockTasks.get(ctx.query.id, signedIn(ctx))),
    bind(api.lockTask.save, (ctx) => lockTasks.create(ctx.body, signedIn(ctx))),
    bind(api.lockTask.update, (ctx) => lockTasks.update(ctx.body, signedIn(ctx)).then(done)),
    bind(api.lockTask.submit, (ctx) => lockTasks.submit(ctx.query.id, signedIn(ctx)).then(done)),
    bind(api.lockTask.pass, (ctx) => lockTasks.pass(ctx.query.id, signedIn(ctx)).then(done)),
    bind(api.lockTask.reject, (ctx) =>
      lockTasks.reject(ctx.body.id, ctx.body.reason, signedIn(ctx)).then(done),
    ),
    bind(api.lockTask.cancel, (ctx) => lockTasks.cancel(ctx.query.id, signedIn(ctx)).then(done)),
    bind(api.lockTask.forceEnd, (ctx) =>
      lockTasks.forceEnd(ctx.body.id, ctx.body.reason, signedIn(ctx)).then(done),
    ),
    bind(api.lockTask.del, (ctx) => lockTasks.remove(ctx.query.id, signedIn(ctx)).then(done)),

    bind(api.fixedAuthorization.queryPage, ({ query: { objectType, keyword, deviceId, state, ...page } }) =>
      authorizations.query({ objectType, keyword, deviceId, state }, page),
    ),
    bind(api.fixedAuthorization.save, (ctx) => authorizations.create(ctx.body, signedIn(ctx))),
    bind(api.fixedAuthorization.update, ({ body }) => authorizations.update(body).then(done)),
    bind(api.fixedAuthorization.del, ({ query }) => authorizations.remove(query.id).then(done)),

    bind(api.operationRecord.queryPage, ({ query, req }) => {
      const { pageIndex, pageSize, sort, ascending, ...search } = query;
      return operations.query(search, { pageIndex, pageSize, sort, ascending }, req.lang);
    }),
    bind(api.operationRecord.export, async ({ query, req, reply }) =>
      sendCsv(reply, await operations.export(query, req.lang)),
    ),
    bind(api.operationRecord.photo, async ({ query, reply }) =>
      sendStoredFile(reply, await operations.photo(query.id)),
    ),
    bind(api.operationRecord.remoteOpen, (ctx) => operations.remoteOpen(ctx.body.deviceId, signedIn(ctx))),
    bind(api.client.register, ({ body }) => clients.register(body)),
    bind(api.client.state, ({ query }) => clients.state(query.clientId)),
    bind(api.client.login, ({ body, req }) => clients.login(body, req.ip)),
    bind(api.client.queryPage, ({ query: { keyword, state, ...page } }) =>
      clients.query({ keyword, state }, page),
    ),
    bind(api.client.review, (ctx) => clients.review(ctx.body, signedIn(ctx)).then(done)),
    bind(api.client.del, ({ query }) => clients.remove(query.id).then(done)),
    bind(api.client.downloadTasks, async (ctx) =>
      clients.downloadTasks(ctx.query.keyId, signedIn(ctx), await callingClient(ctx)),
    ),
    bind(api.client.uploadRecords, async (ctx) => {
      await callingClient(ctx);
      return clients.uploadRecords(ctx.body.records, signedIn(ctx));
    }),
    bind(api.operationRecord.remoteClose, (ctx) => operations.remoteClose(ctx.body.deviceId, signedIn(ctx))),
  ];
}
