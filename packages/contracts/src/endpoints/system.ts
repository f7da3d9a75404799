import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';

export const health = defineEndpoint({
  method: 'GET',
  path: '/health',
  access: 'public',
  module: 'system',
  summary: 'Liveness: the process answers',
  response: z.object({ status: z.literal('ok'), version: z.string() }),
});

export const ready = defineEndpoint({
  method: 'GET',
  path: '/ready',
  access: 'public',
  module: 'system',
  summary: 'Readiness: database and device bus reachable',
  response: z.object({ database: z.boolean(), mqtt: z.boolean() }),
});

export const getStationCode = defineEndpoint({
  method: 'GET',
  path: '/fp/getStationCode',
  access: 'public',
  module: 'system',
  summary: 'Station id of this installation (kept by the console as sys.stationId)',
  response: z.string(),
});

export const getSupportMultiLanguage = defineEndpoint({
  method: 'GET',
  path: '/params/getSupportMultiLanguage',
  access: 'public',
  module: 'params',
  summary: 'Whether the language selector is offered',
  response: z.boolean(),
});

export const loginParams = z.object({
  /** Parameter UserRegisterLorawan equals "true": the login page offers registration. */
  userRegister: z.boolean(),
});

export const getLoginParams = defineEndpoint({
  method: 'GET',
  path: '/params/getLoginParams',
  access: 'public',
  module: 'params',
  summary: 'Parameters the login page needs before sign-in',
  response: loginParams,
});

export const getFeatureFlags = defineEndpoint({
  method: 'GET',
  path: '/params/getFeatureFlags',
  access: 'signedIn',
  allowedBeforePasswordChange: true,
  module: 'params',
  summary: 'Feature flags of spec §6 (kept by the console as sys_params)',
  response: z.record(z.string(), z.string()),
});
