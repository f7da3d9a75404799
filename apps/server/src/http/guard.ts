import { accessKeys, ResultCode } from '@uiot/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SessionService } from '../modules/auth/index.ts';
import { AppError } from './app-error.ts';
import type { BoardViewer } from './request-context.ts';

/** The bearer token of a call, or null when it carries none. */
export function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : null;
}

/**
 * The one permission guard (ARCHITECTURE §4): resolves the user from the bearer token and enforces the
 * access each endpoint of the contract declares. Routes outside the contract are on the public list. A user
 * held at the forced first-sign-in password change (spec §4 Login) reaches only the endpoints the contract
 * marks `allowedBeforePasswordChange`; every other one answers HTTP 403 with PasswordChangeRequired. The
 * control-room board's endpoints (access `alarmBoard`) take a display session's token and no other; every
 * other endpoint resolves staff sessions only, so a display token is refused there as unknown.
 */
export function installGuard(
  app: FastifyInstance,
  sessions: SessionService,
  boards: { resolve(token: string): Promise<BoardViewer | null> },
): void {
  app.decorateRequest('user', null);
  app.decorateRequest('alarmBoard', null);
  app.addHook('preHandler', async (req) => {
    const endpoint = req.routeOptions.config.endpoint;
    const token = bearerToken(req);
    if (endpoint?.access === 'alarmBoard') {
      if (!token) throw new AppError(ResultCode.Unauthenticated);
      req.alarmBoard = await boards.resolve(token);
      if (!req.alarmBoard) throw new AppError(ResultCode.AlarmBoardRevoked, { httpStatus: 401 });
      return;
    }
    req.user = token ? await sessions.resolve(token) : null;
    if (!endpoint || endpoint.access === 'public') return;
    if (!req.user) throw new AppError(ResultCode.Unauthenticated);
    if (req.user.mustChangePassword && !endpoint.allowedBeforePasswordChange) {
      throw new AppError(ResultCode.PasswordChangeRequired, { httpStatus: 403 });
    }
    const keys = accessKeys(endpoint.access);
    if (keys && !keys.some((key) => req.user?.permissions.has(key))) throw new AppError(ResultCode.Forbidden);
  });
}
