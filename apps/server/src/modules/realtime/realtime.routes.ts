import { api, ResultCode } from '@uiot/contracts';
import { AppError } from '../../http/app-error.ts';
import { bind, type RouteBinding, signedIn } from '../../http/endpoints.ts';
import { type ConsoleBrokerLogins, staffBrokerLogins } from './console-accounts.ts';

/** The session token of the call, which the console signs in to the broker with. */
function sessionToken(authorization: string | undefined): string {
  const [scheme, token] = authorization?.split(' ') ?? [];
  if (scheme?.toLowerCase() !== 'bearer' || !token) throw new AppError(ResultCode.Unauthenticated);
  return token;
}

export function realtimeRoutes(brokerLogins: ConsoleBrokerLogins = staffBrokerLogins): RouteBinding[] {
  return [
    bind(api.realtime.getBrokerLogin, async (ctx) =>
      brokerLogins.loginFor(signedIn(ctx), sessionToken(ctx.req.headers.authorization)),
    ),
  ];
}
