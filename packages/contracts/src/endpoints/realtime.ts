import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';

export const brokerLogin = z.object({
  /**
   * The username the console signs in to the broker's WebSocket listener with; the password is its session
   * token. The staff id on the embedded broker; `web-{session token hash}` on an external Mosquitto whose
   * accounts the server administers (docs/scale-out.md).
   */
  username: z.string(),
});
export type BrokerLogin = z.infer<typeof brokerLogin>;

export const getBrokerLogin = defineEndpoint({
  method: 'GET',
  path: '/realtime/brokerLogin',
  access: 'signedIn',
  module: 'realtime',
  summary:
    "The console's broker sign-in for live data (creates its broker account where the server keeps them)",
  response: brokerLogin,
});
