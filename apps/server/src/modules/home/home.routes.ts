import { api } from '@uiot/contracts';
import { bind, type RouteBinding, signedIn } from '../../http/endpoints.ts';
import type { Services } from '../../services.ts';

const RECENT_OPERATIONS = 10;
const THIRTY_DAYS_MS = 30 * 24 * 3600 * 1000;

export function homeRoutes({ opLog }: Services): RouteBinding[] {
  return [
    bind(api.home.getHomeOverview, async (ctx) => {
      const user = signedIn(ctx);
      const logins = await opLog.loginSummary(user.staffId, new Date(Date.now() - THIRTY_DAYS_MS));
      const recent = await opLog.recentOf(user.staffId, RECENT_OPERATIONS);
      return {
        lastLogin: logins.previous
          ? { loginTime: logins.previous.loginTime.toISOString(), ipAddr: logins.previous.ipAddr }
          : null,
        loginCount30d: logins.count,
        recentOperations: recent.map((r) => ({ ...r, operateTime: r.operateTime.toISOString() })),
      };
    }),
  ];
}
