import type { Endpoint } from './endpoint.ts';
import * as home from './endpoints/home.ts';
import * as staffSession from './endpoints/staff-session.ts';
import * as system from './endpoints/system.ts';

/** Every endpoint of the API, grouped by module. The server registers exactly these. */
export const api = {
  system: {
    health: system.health,
    ready: system.ready,
    getStationCode: system.getStationCode,
    getSupportMultiLanguage: system.getSupportMultiLanguage,
    getLoginParams: system.getLoginParams,
    getFeatureFlags: system.getFeatureFlags,
  },
  auth: {
    loginCheck: staffSession.loginCheck,
    logout: staffSession.logout,
    queryMenuRight: staffSession.queryMenuRight,
    isFirstLogin: staffSession.isFirstLogin,
    changePwd: staffSession.changePwd,
    getUserInfo: staffSession.getUserInfo,
    updateMyInfo: staffSession.updateMyInfo,
  },
  home: {
    getHomeOverview: home.getHomeOverview,
  },
} as const;

export const ALL_ENDPOINTS: readonly Endpoint[] = Object.values(api).flatMap(
  (group) => Object.values(group) as Endpoint[],
);
