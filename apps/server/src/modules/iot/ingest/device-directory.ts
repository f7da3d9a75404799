import type { DeviceAddress } from '@uiot/device-protocol';
import type { Db } from '../../../db/client.ts';
import { findRegisteredDevice, type IngestDevice } from './ingest.repository.ts';

export interface DeviceDirectoryOptions {
  /** How long a found device is remembered (default 60 s). */
  ttlMs?: number;
  /** How long "no such registered device" is remembered (default 10 s). */
  missTtlMs?: number;
  /** Most remembered addresses (default 200 000). */
  maxEntries?: number;
  now?: () => number;
}

interface Entry {
  device: IngestDevice | null;
  expires: number;
}

/**
 * Finds the registered device an address names, with a cache: a whole network reports many times a minute,
 * and the ledger changes rarely. Registration changes reach the cache within its time to live, or at once
 * through `forget`.
 */
export class DeviceDirectory {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<IngestDevice | null>>();
  private readonly ttlMs: number;
  private readonly missTtlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly db: Db,
    options: DeviceDirectoryOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.missTtlMs = options.missTtlMs ?? 10_000;
    this.maxEntries = options.maxEntries ?? 200_000;
    this.now = options.now ?? Date.now;
  }

  resolve(address: DeviceAddress): Promise<IngestDevice | null> | IngestDevice | null {
    const key = keyOf(address);
    const entry = this.entries.get(key);
    if (entry && entry.expires > this.now()) return entry.device;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const load = this.load(address, key);
    this.loading.set(key, load);
    return load;
  }

  /** Forgets every remembered device (a registration or credential changed). */
  forget(): void {
    this.entries.clear();
  }

  private async load(address: DeviceAddress, key: string): Promise<IngestDevice | null> {
    try {
      const device =
        address.by === 'code'
          ? await findRegisteredDevice(this.db, 'code', address.code)
          : address.by === 'devEui'
            ? await findRegisteredDevice(this.db, 'devEui', address.devEui.toUpperCase())
            : await findRegisteredDevice(this.db, 'imei', address.imei);
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { device, expires: this.now() + (device ? this.ttlMs : this.missTtlMs) });
      return device;
    } finally {
      this.loading.delete(key);
    }
  }
}

function keyOf(address: DeviceAddress): string {
  switch (address.by) {
    case 'code':
      return `c:${address.code}`;
    case 'devEui':
      return `e:${address.devEui.toUpperCase()}`;
    default:
      return `i:${address.imei}`;
  }
}
