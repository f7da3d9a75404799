import { api } from '@uiot/contracts';
import { bind, type RouteBinding, signedIn } from '../../http/endpoints.ts';
import type { Services } from '../../services.ts';
import { ParamSendService } from './param-send.service.ts';

/** Remote control records, and the parameter send-down of the device monitor. */
export function commandRoutes({ commandRecords, commands, devices }: Services): RouteBinding[] {
  const paramSend = new ParamSendService(devices.ledger, commands);
  return [
    bind(api.deviceCommand.queryPage, ({ query, req }) => commandRecords.query(query, req.lang)),
    bind(api.deviceCommand.sendParam, (ctx) => {
      const user = signedIn(ctx);
      return paramSend.send(ctx.body, { id: user.staffId, name: user.staffName }, user);
    }),
  ];
}
