import { createHash, randomBytes } from 'node:crypto';
import type { DeviceCredential } from '@uiot/contracts';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type DomainEvents, EventBus } from '../../infra/events/event-bus.ts';
import { sameSecret } from '../../lib/same-secret.ts';
import { device } from '../devices/devices.schema.ts';
import { deviceCredential, devicePinSecret } from './iot.schema.ts';
import './events.ts';

/** 192 random bits: above the 128 the device bus asks for, and a whole number of base64 characters. */
const SECRET_BYTES = 24;

/** A new device secret (base64url, 32 characters). */
export function newDeviceSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

/**
 * The stored form of a secret. A plain SHA-256 suffices: the secret is random and long, so there is nothing
 * to guess, and the broker checks thousands of device connections a second.
 */
export function hashDeviceSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A new offline-PIN secret: 20 random bytes (RFC 4226's recommended length), in hex. */
export function newPinSecret(): string {
  return randomBytes(20).toString('hex');
}

export function deviceSecretMatches(secret: string, storedHash: string): boolean {
  return sameSecret(hashDeviceSecret(secret), storedHash);
}

/** Who a device that presents a valid secret is. */
export interface AuthenticatedDevice {
  deviceId: string;
  stationId: string;
  code: string;
}

/**
 * Issues and checks the broker / TcpDirect credentials of registered devices. Every issued or withdrawn
 * credential is published as `credential.changed` (after the transaction commits) so that a broker can drop
 * old sessions.
 */
export class DeviceCredentials {
  constructor(
    private readonly db: Db,
    readonly events: EventBus = new EventBus(),
  ) {}

  /**
   * Issues a new secret to a device with a code (inside the caller's transaction) and returns it with a
   * function that announces it once the transaction has committed; a device without a code gets none.
   */
  async issue(
    tx: Db,
    deviceId: string,
  ): Promise<{ credential: DeviceCredential | null; announce: () => void }> {
    const [row] = await tx
      .select({ code: device.code, stationId: device.stationId })
      .from(device)
      .where(eq(device.id, deviceId));
    // Every registered lock can take offline PINs, with a code or not; a reset keeps the PIN secret.
    const pinSecret = row ? await this.keepPinSecret(tx, deviceId) : null;
    if (!row?.code || pinSecret === null) {
      await tx.delete(deviceCredential).where(eq(deviceCredential.deviceId, deviceId));
      return { credential: null, announce: () => {} };
    }
    const secret = newDeviceSecret();
    const secretHash = hashDeviceSecret(secret);
    await tx
      .insert(deviceCredential)
      .values({ deviceId, secretHash })
      .onConflictDoUpdate({ target: deviceCredential.deviceId, set: { secretHash, issuedAt: new Date() } });
    const credential = { username: row.code, stationId: row.stationId, secret, pinSecret };
    return {
      credential,
      announce: () => this.emit({ code: row.code!, stationId: row.stationId, secret }),
    };
  }

  /** Withdraws a device's credential (unregistration); returns the announcement to make after commit. */
  async withdraw(tx: Db, deviceId: string): Promise<() => void> {
    const [row] = await tx
      .select({ code: device.code, stationId: device.stationId })
      .from(device)
      .where(eq(device.id, deviceId));
    await tx.delete(deviceCredential).where(eq(deviceCredential.deviceId, deviceId));
    const pinSecrets = await tx
      .delete(devicePinSecret)
      .where(eq(devicePinSecret.deviceId, deviceId))
      .returning({ deviceId: devicePinSecret.deviceId });
    const at = Date.now();
    return () => {
      if (row?.code) this.emit({ code: row.code, stationId: row.stationId, secret: null });
      if (pinSecrets.length > 0) this.events.publish('pinSecret.replaced', { deviceId, at });
    };
  }

  /** The device's PIN secret, issued now if it has none (inside the caller's transaction). */
  private async keepPinSecret(tx: Db, deviceId: string): Promise<string> {
    await tx.insert(devicePinSecret).values({ deviceId, secret: newPinSecret() }).onConflictDoNothing();
    const [row] = await tx
      .select({ secret: devicePinSecret.secret })
      .from(devicePinSecret)
      .where(eq(devicePinSecret.deviceId, deviceId));
    return row!.secret;
  }

  /**
   * A new PIN secret for a registered device (a lock provisioned again): every PIN derived from the old one
   * stops opening it once the lock holds the new one. Null when the device is not registered; else the secret
   * with the announcement (`pinSecret.replaced`) to make once the caller's transaction has committed.
   */
  async resetPinSecret(tx: Db, deviceId: string): Promise<{ secret: string; announce: () => void } | null> {
    const [row] = await tx.select({ regist: device.regist }).from(device).where(eq(device.id, deviceId));
    if (!row?.regist) return null;
    const secret = newPinSecret();
    const issuedAt = new Date();
    await tx
      .insert(devicePinSecret)
      .values({ deviceId, secret, issuedAt })
      .onConflictDoUpdate({ target: devicePinSecret.deviceId, set: { secret, issuedAt } });
    const at = issuedAt.getTime();
    return { secret, announce: () => this.events.publish('pinSecret.replaced', { deviceId, at }) };
  }

  /** The PIN secret of a device (bytes), or null when it has none (not registered). Never logged. */
  async pinSecretOf(deviceId: string, db: Db = this.db): Promise<Uint8Array | null> {
    const [row] = await db
      .select({ secret: devicePinSecret.secret })
      .from(devicePinSecret)
      .where(eq(devicePinSecret.deviceId, deviceId));
    return row ? Buffer.from(row.secret, 'hex') : null;
  }

  /** The registered device whose code and secret these are, or null. */
  async authenticate(code: string, secret: string): Promise<AuthenticatedDevice | null> {
    if (!code || !secret || code.length > 128 || secret.length > 256) return null;
    // A broker username is any text: one holding U+0000 names no device and must not reach the query.
    if (code.includes('\u0000')) return null;
    const [row] = await this.db
      .select({
        deviceId: device.id,
        stationId: device.stationId,
        code: device.code,
        secretHash: deviceCredential.secretHash,
      })
      .from(device)
      .innerJoin(deviceCredential, eq(deviceCredential.deviceId, device.id))
      .where(and(eq(device.code, code), eq(device.regist, true)));
    if (!row?.code || !deviceSecretMatches(secret, row.secretHash)) return null;
    return { deviceId: row.deviceId, stationId: row.stationId, code: row.code };
  }

  private emit(change: DomainEvents['credential.changed']): void {
    this.events.publish('credential.changed', change);
  }
}
