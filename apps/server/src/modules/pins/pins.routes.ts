import { api } from '@uiot/contracts';
import { bind, type RouteBinding, signedIn } from '../../http/endpoints.ts';
import type { Services } from '../../services.ts';

/** Offline PINs (/task/offline-pins and the monitor's dynamic-passwords tab). */
export function pinsRoutes({ pins }: Services): RouteBinding[] {
  return [
    bind(api.pin.queryPage, (ctx) => {
      const { deviceId, type, useState, keyword, ...page } = ctx.query;
      return pins.query({ deviceId, type, useState, keyword }, page, signedIn(ctx));
    }),
    bind(api.pin.generate, (ctx) => pins.generate(ctx.body, signedIn(ctx))),
    bind(api.pin.showCode, (ctx) => pins.showCode(ctx.query.id, signedIn(ctx))),
    bind(api.pin.revoke, (ctx) => pins.revoke(ctx.query.id, signedIn(ctx))),
    bind(api.pin.eraseCode, (ctx) => pins.eraseCode(ctx.query.deviceId, signedIn(ctx))),
  ];
}
