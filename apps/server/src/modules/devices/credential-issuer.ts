import type { DeviceCredential } from '@uiot/contracts';
import type { Db } from '../../db/client.ts';

/**
 * What registering and unregistering a device need of its broker / TcpDirect credential: the iot module's
 * DeviceCredentials, handed in when the services are built. Each returns what announces the change once
 * the caller's transaction has committed.
 */
export interface CredentialIssuer {
  issue(tx: Db, deviceId: string): Promise<{ credential: DeviceCredential | null; announce: () => void }>;
  withdraw(tx: Db, deviceId: string): Promise<() => void>;
  /** A new offline-PIN secret for a registered device, with its announcement; null when it is not registered. */
  resetPinSecret(tx: Db, deviceId: string): Promise<{ secret: string; announce: () => void } | null>;
}
