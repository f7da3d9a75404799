import { api } from '@uiot/contracts';
import { bind, type RouteBinding, signedIn } from '../../http/endpoints.ts';
import type { Services } from '../../services.ts';

export function authRoutes({ auth }: Services): RouteBinding[] {
  return [
    bind(api.auth.loginCheck, async ({ body, req }) => {
      // The operation log names the account signed in to, or on failure the name tried (never the password).
      req.opLogActor = { userId: null, userName: body.name.trim() };
      const result = await auth.login(body, req.ip);
      req.opLogActor = { userId: result.userId, userName: result.userName };
      return result;
    }),
    bind(api.auth.logout, async (ctx) => {
      await auth.logout(signedIn(ctx));
      return null;
    }),
    bind(api.auth.queryMenuRight, (ctx) => auth.menuRight(signedIn(ctx), ctx.query.id)),
    bind(api.auth.isFirstLogin, (ctx) => auth.isFirstLogin(signedIn(ctx), ctx.query.staffId)),
    bind(api.auth.changePwd, async (ctx) => {
      await auth.changePassword(signedIn(ctx), ctx.body, ctx.req.ip);
      return null;
    }),
    bind(api.auth.getUserInfo, (ctx) => auth.userInfo(signedIn(ctx))),
    bind(api.auth.updateMyInfo, async (ctx) => {
      await auth.updateMyInfo(signedIn(ctx), ctx.body);
      return null;
    }),
  ];
}
