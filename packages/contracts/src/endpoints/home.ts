import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';

export const homeOverview = z.object({
  lastLogin: z.object({ loginTime: z.string(), ipAddr: z.string().nullable() }).nullable(),
  loginCount30d: z.number().int(),
  recentOperations: z.array(z.object({ operateTime: z.string(), methodDesc: z.string(), url: z.string() })),
});
export type HomeOverview = z.infer<typeof homeOverview>;

export const getHomeOverview = defineEndpoint({
  method: 'GET',
  path: '/home/overview',
  access: 'signedIn',
  module: 'home',
  summary: "The signed-in user's previous sign-in and recent operations",
  response: homeOverview,
});
