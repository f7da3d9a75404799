import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { device } from '../devices/devices.schema.ts';

export interface DevicePlace {
  stationId: string;
  name: string;
}

export interface DevicePlacesOptions {
  /** How long a device's station and name are remembered (default 60 s). */
  ttlMs?: number;
  /** Most remembered devices (default 50 000). */
  maxEntries?: number;
  now?: () => number;
}

/**
 * The station (for the topic) and name (for a notification) of the devices command changes are about: one
 * query per batch of unknown devices, then remembered for a while. A renamed device shows its new name
 * within the time to live; a device's station does not change.
 */
export class DevicePlaces {
  private readonly entries = new Map<string, { place: DevicePlace; expires: number }>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly db: Db,
    options: DevicePlacesOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.maxEntries = options.maxEntries ?? 50_000;
    this.now = options.now ?? Date.now;
  }

  /** The places of those devices that exist. */
  async of(deviceIds: readonly string[]): Promise<Map<string, DevicePlace>> {
    const now = this.now();
    const found = new Map<string, DevicePlace>();
    const missing: string[] = [];
    for (const id of new Set(deviceIds)) {
      const entry = this.entries.get(id);
      if (entry && entry.expires > now) found.set(id, entry.place);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    const rows = await this.db
      .select({ id: device.id, stationId: device.stationId, name: device.name })
      .from(device)
      .where(inArray(device.id, missing));
    if (this.entries.size + rows.length > this.maxEntries) this.entries.clear();
    for (const row of rows) {
      const place = { stationId: row.stationId, name: row.name };
      this.entries.set(row.id, { place, expires: now + this.ttlMs });
      found.set(row.id, place);
    }
    return found;
  }
}
