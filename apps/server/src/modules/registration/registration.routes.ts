import { api } from '@uiot/contracts';
import { bind, type RouteBinding, signedIn } from '../../http/endpoints.ts';
import type { Services } from '../../services.ts';

export function registrationRoutes({ registration, mail }: Services): RouteBinding[] {
  return [
    bind(api.registration.sendVerificationCode, ({ query, req }) =>
      registration.sendCode(query.email, req.ip, req.lang),
    ),
    bind(api.registration.verifyVerificationCode, ({ query }) =>
      registration.verifyCode(query.email, query.verificationCode),
    ),
    bind(api.registration.userRegister, async ({ body, req }) => {
      await registration.register(body, req.lang);
      return null;
    }),
    bind(api.registration.querySysMessagePage, ({ query }) => registration.querySysMessages(query)),
    bind(api.registration.reviewRegistration, async (ctx) => {
      await registration.review(signedIn(ctx), ctx.body, ctx.req.lang);
      return null;
    }),
    bind(api.registration.queryOutboxPage, ({ query }) => mail.queryOutbox(query)),
  ];
}
