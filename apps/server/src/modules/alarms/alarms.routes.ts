import { api } from '@uiot/contracts';
import { sendCsv } from '../../http/csv-reply.ts';
import { bind, boardViewer, callToken, type RouteBinding, signedIn } from '../../http/endpoints.ts';
import type { RouteDeps } from '../../module.ts';
import type { Services } from '../../services.ts';

/** Warn rules, the property catalogue of device types, device alarms and the control-room board. */
export function alarmsRoutes(
  services: Services,
  { brokerLogins }: Pick<RouteDeps, 'brokerLogins'>,
): RouteBinding[] {
  const { warnRules, alarms, notifier, board } = services.alarms;
  const done = () => null;
  return [
    bind(api.deviceProperty.queryByType, ({ query }) => warnRules.properties(query.deviceTypeId)),
    bind(api.deviceProperty.save, ({ body }) => warnRules.createProperty(body)),
    bind(api.deviceProperty.update, ({ body }) => warnRules.updateProperty(body).then(done)),
    bind(api.deviceProperty.del, ({ query }) => warnRules.removeProperty(query.id).then(done)),

    bind(api.warnRule.queryPage, ({ query: { name, deviceTypeId, ...page } }) =>
      warnRules.query({ name, deviceTypeId }, page),
    ),
    bind(api.warnRule.save, ({ body }) => warnRules.create(body)),
    bind(api.warnRule.update, ({ body }) => warnRules.update(body).then(done)),
    bind(api.warnRule.del, ({ query }) => warnRules.remove(query.id).then(done)),
    bind(api.warnRule.noticeChannels, async () => notifier.channels),

    bind(api.deviceAlarm.queryPage, ({ query, req }) => {
      const { startTime, endTime, state, severity, deviceId, deviceName, ...page } = query;
      return alarms.query({ startTime, endTime, state, severity, deviceId, deviceName }, page, req.lang);
    }),
    bind(api.deviceAlarm.export, async ({ query, req, reply }) =>
      sendCsv(reply, await alarms.export(query, req.lang)),
    ),
    bind(api.deviceAlarm.openCount, () => alarms.openCount()),
    bind(api.deviceAlarm.notices, ({ query }) => alarms.notices(query.id)),
    bind(api.home.getTodayWarn, ({ query }) => alarms.today(query.limit)),
    bind(api.deviceAlarm.reset, (ctx) => alarms.reset(ctx.query.id, signedIn(ctx)).then(done)),
    bind(api.deviceAlarm.acknowledge, (ctx) => alarms.acknowledge(ctx.query.id, signedIn(ctx)).then(done)),

    bind(api.alarmBoard.queryPage, ({ query: { state, ...page } }) => board.query({ state }, page)),
    bind(api.alarmBoard.stations, () => board.stations()),
    bind(api.alarmBoard.save, (ctx) => board.create(ctx.body, signedIn(ctx), ctx.req.lang)),
    bind(api.alarmBoard.newCode, ({ query }) => board.newCode(query.id)),
    bind(api.alarmBoard.revoke, ({ query }) => board.revoke(query.id).then(done)),
    bind(api.alarmBoard.exchange, ({ body, req }) => board.exchange(body.code, req.ip)),
    bind(api.alarmBoard.openAlarms, (ctx) => board.board(boardViewer(ctx), ctx.req.ip)),
    bind(api.alarmBoard.brokerLogin, (ctx) => brokerLogins.boardLoginFor(boardViewer(ctx), callToken(ctx))),
  ];
}
