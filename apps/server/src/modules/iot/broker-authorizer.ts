import { type ConsoleSessionUser, consoleIdentity } from '../../infra/mqtt/console-identity.ts';
import { CHIRPSTACK_USERNAME } from '../../infra/mqtt/dynsec.ts';
import type { BrokerAuthRequest, BrokerIdentity } from '../../infra/mqtt/embedded-broker.ts';
import { sameSecret } from '../../lib/same-secret.ts';
import type { DeviceCredentials } from './device-credentials.ts';

export interface BrokerAuthorizerDeps {
  credentials: Pick<DeviceCredentials, 'authenticate'>;
  resolveSession: (token: string) => Promise<ConsoleSessionUser | null>;
  stationId: string;
  chirpstackPassword: string | undefined;
}

/**
 * Who may connect to the embedded broker (ARCHITECTURE §4): browsers over WebSocket with their session
 * token, and only there; over TCP, the ChirpStack integration with its configured password and registered
 * devices with their code and secret, and nobody else. Anything else is refused.
 */
export function brokerAuthorizer(deps: BrokerAuthorizerDeps) {
  return async ({ username, password, transport }: BrokerAuthRequest): Promise<BrokerIdentity | null> => {
    if (!username || !password) return null;
    if (transport === 'ws') {
      return consoleIdentity(await deps.resolveSession(password), username, deps.stationId);
    }
    if (username === CHIRPSTACK_USERNAME) {
      return deps.chirpstackPassword && sameSecret(password, deps.chirpstackPassword)
        ? { kind: 'chirpstack' }
        : null;
    }
    const device = await deps.credentials.authenticate(username, password);
    return device ? { kind: 'device', stationId: device.stationId, deviceCode: device.code } : null;
  };
}

export interface ConsoleRecheckDeps {
  /** The session's user by its token hash, read without counting as a use (SessionService.userOf). */
  userOf: (tokenHash: string) => Promise<ConsoleSessionUser | null>;
  stationId: string;
}

/** Who a connected browser's session is now, for the embedded broker's recheck after a session change. */
export function consoleRechecker(deps: ConsoleRecheckDeps) {
  return async ({ session, username }: { session: string; username: string }) =>
    consoleIdentity(await deps.userOf(session), username, deps.stationId);
}
