import type { DeviceAddress } from '@uiot/device-protocol';
import type { Db } from '../../../db/client.ts';
import { type DeviceKey, findRegisteredDevices, type IngestDevice } from './ingest.repository.ts';

export interface DeviceDirectoryOptions {
  /** How long a found device is remembered, at most (default 60 s; each entry between half and all of it). */
  ttlMs?: number;
  /** How long "no such registered device" is remembered (default 10 s). */
  missTtlMs?: number;
  /** Most remembered addresses (default 200 000). */
  maxEntries?: number;
  /** Most addresses looked up in one query (default 1 000). */
  maxLookup?: number;
  now?: () => number;
  /** A number in [0, 1): where in its time to live an entry expires. */
  random?: () => number;
}

interface Entry {
  device: IngestDevice | null;
  expires: number;
}

interface Waiting {
  key: string;
  settle: (device: IngestDevice | null) => void;
  fail: (error: unknown) => void;
}

/**
 * Finds the registered device an address names, with a cache: a whole network reports many times a minute,
 * and the ledger changes rarely. Registration changes reach the cache within its time to live, or at once
 * through `forget`.
 *
 * Addresses not in the cache are looked up together: those asked for within one turn of the event loop go in
 * one query per kind of address. A fleet connecting, or a cache forgotten, then costs the database a few
 * queries, not one per device; and entries expire spread over half their time to live, not all at once.
 */
export class DeviceDirectory {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<IngestDevice | null>>();
  private readonly queued = new Map<DeviceKey, Map<string, Waiting[]>>();
  private flushScheduled = false;
  private readonly ttlMs: number;
  private readonly missTtlMs: number;
  private readonly maxEntries: number;
  private readonly maxLookup: number;
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(
    private readonly db: Db,
    options: DeviceDirectoryOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.missTtlMs = options.missTtlMs ?? 10_000;
    this.maxEntries = options.maxEntries ?? 200_000;
    this.maxLookup = Math.max(1, options.maxLookup ?? 1_000);
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
  }

  resolve(address: DeviceAddress): Promise<IngestDevice | null> | IngestDevice | null {
    const [by, value] = lookupOf(address);
    const key = `${by}:${value}`;
    const entry = this.entries.get(key);
    if (entry && entry.expires > this.now()) return entry.device;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const load = new Promise<IngestDevice | null>((settle, fail) => {
      let byValue = this.queued.get(by);
      if (!byValue) {
        byValue = new Map();
        this.queued.set(by, byValue);
      }
      const waiting = byValue.get(value) ?? [];
      waiting.push({ key, settle, fail });
      byValue.set(value, waiting);
    });
    this.loading.set(key, load);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => void this.flush());
    }
    return load;
  }

  /** Forgets every remembered device (a registration or credential changed). */
  forget(): void {
    this.entries.clear();
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false;
    const queued = [...this.queued];
    this.queued.clear();
    for (const [by, byValue] of queued) {
      const values = [...byValue.keys()];
      for (let start = 0; start < values.length; start += this.maxLookup) {
        const chunk = values.slice(start, start + this.maxLookup);
        try {
          const found = await findRegisteredDevices(this.db, by, chunk);
          if (this.entries.size + chunk.length > this.maxEntries) this.entries.clear();
          const now = this.now();
          for (const value of chunk) {
            const device = found.get(value) ?? null;
            // Spread over the second half of the time to live, so that a fleet met at once is not
            // looked up again all at once.
            const ttl = device ? this.ttlMs * (0.5 + this.random() / 2) : this.missTtlMs;
            for (const waiting of byValue.get(value) ?? []) {
              this.entries.set(waiting.key, { device, expires: now + ttl });
              this.loading.delete(waiting.key);
              waiting.settle(device);
            }
          }
        } catch (error) {
          for (const value of chunk) {
            for (const waiting of byValue.get(value) ?? []) {
              this.loading.delete(waiting.key);
              waiting.fail(error);
            }
          }
        }
      }
    }
  }
}

function lookupOf(address: DeviceAddress): [DeviceKey, string] {
  switch (address.by) {
    case 'code':
      return ['code', address.code];
    case 'devEui':
      return ['devEui', address.devEui.toUpperCase()];
    default:
      return ['imei', address.imei];
  }
}
