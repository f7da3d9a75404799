import { api } from '@uiot/contracts';
import { bind, callToken, type RouteBinding, signedIn } from '../../http/endpoints.ts';
import type { ConsoleBrokerLogins } from './console-accounts.ts';

export function realtimeRoutes(brokerLogins: ConsoleBrokerLogins): RouteBinding[] {
  return [
    bind(api.realtime.getBrokerLogin, async (ctx) => brokerLogins.loginFor(signedIn(ctx), callToken(ctx))),
  ];
}
