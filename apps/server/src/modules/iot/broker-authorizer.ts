import type { SessionUser } from '../../http/request-context.ts';
import { sameSecret } from '../../lib/same-secret.ts';
import { consoleIdentity } from '../realtime/console-identity.ts';
import type { BrokerAuthRequest, BrokerIdentity } from '../realtime/embedded-broker.ts';
import { CHIRPSTACK_USERNAME } from './broker-access/dynsec.ts';
import type { DeviceCredentials } from './device-credentials.ts';

export interface BrokerAuthorizerDeps {
  credentials: Pick<DeviceCredentials, 'authenticate'>;
  resolveSession: (token: string) => Promise<Pick<SessionUser, 'staffId' | 'mustChangePassword'> | null>;
  stationId: string;
  chirpstackPassword: string | undefined;
}

/**
 * Who may connect to the embedded broker (ARCHITECTURE §4): browsers over WebSocket with their session
 * token; over TCP, the ChirpStack integration with its configured password, and registered devices with
 * their code and secret. Anything else is refused.
 */
export function brokerAuthorizer(deps: BrokerAuthorizerDeps) {
  return async ({ username, password, transport }: BrokerAuthRequest): Promise<BrokerIdentity | null> => {
    if (!username || !password) return null;
    if (transport === 'tcp') {
      if (username === CHIRPSTACK_USERNAME) {
        return deps.chirpstackPassword && sameSecret(password, deps.chirpstackPassword)
          ? { kind: 'chirpstack' }
          : null;
      }
      const device = await deps.credentials.authenticate(username, password);
      if (device) return { kind: 'device', stationId: device.stationId, deviceCode: device.code };
    }
    const user = await deps.resolveSession(password);
    return consoleIdentity(user, username, deps.stationId);
  };
}
