import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import { OpLogService } from './modules/admin/op-log.service.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { SessionService } from './modules/auth/session.service.ts';
import { ParamService } from './modules/params/param.service.ts';

/** The services of the business modules, built once per process around one database. */
export interface Services {
  sessions: SessionService;
  auth: AuthService;
  params: ParamService;
  opLog: OpLogService;
}

export function createServices(
  db: Db,
  config: Pick<Config, 'sessionIdleSeconds' | 'sessionMaxSeconds'>,
): Services {
  const sessions = new SessionService(db, {
    idleSeconds: config.sessionIdleSeconds,
    maxSeconds: config.sessionMaxSeconds,
  });
  const params = new ParamService(db);
  return {
    sessions,
    params,
    auth: new AuthService(db, sessions, params),
    opLog: new OpLogService(db),
  };
}
