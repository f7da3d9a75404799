import type { DeviceMessage, ExtensionProps } from '@uiot/device-protocol';

/** A stored message of a known device, as the runtime merge reads it. */
export interface AcceptedMessage {
  deviceId: string;
  messageId: string;
  message: DeviceMessage;
  /** When the server received it (ms): decides order and the last collection time. */
  receivedAt: number;
  /** The devEUI the LoRaWAN network named the device by, if any. */
  devEui?: string;
  /** The ChirpStack application the uplink came from, if any. */
  chirpstackApplicationId?: string;
}

/**
 * What a batch changes in one device's runtime data: absent fields stay as they were. Every message, a
 * command result included, proves the device is alive (online, last collection time).
 */
export interface RuntimeUpdate {
  deviceId: string;
  lastCollectTime: number;
  lastMessageId: string;
  lockState?: 'open' | 'closed';
  doorState?: 'open' | 'closed';
  battery?: number;
  rssi?: number;
  runState?: 'normal' | 'damaged' | 'lowPower' | 'timeOutNotClosed';
  props?: ExtensionProps;
  devEui?: string;
  chirpstackApplicationId?: string;
  /** The batch's `damage` reports of the device (message id, `eventTime` in ms): its damage value counts them. */
  damageReports?: Array<{ messageId: string; at: number }>;
  /**
   * The batch's reports of the lock opening (`lockChanged` to open; message id, `eventTime` and receive time
   * in ms): each becomes an operation record, whatever the lock said after it in the same batch.
   */
  unlocks?: Array<{ messageId: string; at: number; receivedAt: number }>;
  /**
   * The batch's offline-PIN reports (`pinUsed` with the PIN's reference in the property `pinRef`,
   * `pinLockout`): the pins module counts each use and records the opening.
   */
  pinReports?: Array<{ messageId: string; at: number; event: 'pinUsed' | 'pinLockout'; ref: string | null }>;
}

/** How far ahead of its receipt a device's clock may be and still be believed (clocks drift). */
export const EVENT_CLOCK_AHEAD_MS = 5 * 60_000;
/** How long after it happened a lock may report an event and still be believed (a lock offline for weeks). */
export const EVENT_CLOCK_BEHIND_MS = 30 * 24 * 3_600_000;

/**
 * When an event a device reported (an opening, a PIN use, damage) happened: the device's own time when it
 * gave one within [receipt − 30 days, receipt + 5 min], otherwise (no clock, or one never set) the receive
 * time. A lock out of reach reports its openings when it is back: they happened when it says, and are judged
 * (covered by a task in its window?) at that time, not at their late arrival.
 */
export function eventTime(reportedAt: number | undefined, receivedAt: number): number {
  if (reportedAt === undefined) return receivedAt;
  if (reportedAt > receivedAt + EVENT_CLOCK_AHEAD_MS) return receivedAt;
  if (reportedAt < receivedAt - EVENT_CLOCK_BEHIND_MS) return receivedAt;
  return reportedAt;
}

/**
 * Folds a batch of new messages into one update per device, in receive order (ties keep batch order): a
 * later value wins, extension properties merge key by key. Updates come out sorted by device id so that
 * concurrent batches lock runtime rows in the same order.
 */
export function mergeRuntimeUpdates(messages: readonly AcceptedMessage[]): RuntimeUpdate[] {
  // A batch is queued as it arrives, so nearly always in order already: it is sorted (stably) only if not.
  let inOrder = true;
  for (let i = 1; i < messages.length && inOrder; i++) {
    inOrder = messages[i - 1]!.receivedAt <= messages[i]!.receivedAt;
  }
  const ordered = inOrder
    ? messages
    : messages
        .map((m, index) => ({ m, index }))
        .sort((a, b) => a.m.receivedAt - b.m.receivedAt || a.index - b.index)
        .map(({ m }) => m);
  const byDevice = new Map<string, RuntimeUpdate>();
  for (const m of ordered) {
    const update = byDevice.get(m.deviceId) ?? {
      deviceId: m.deviceId,
      lastCollectTime: 0,
      lastMessageId: '',
    };
    update.lastCollectTime = Math.max(update.lastCollectTime, m.receivedAt);
    update.lastMessageId = m.messageId;
    if (m.devEui) update.devEui = m.devEui;
    if (m.chirpstackApplicationId) update.chirpstackApplicationId = m.chirpstackApplicationId;
    const message = m.message;
    if (message.kind === 'report') {
      const at = eventTime(message.reportedAt, m.receivedAt);
      if (message.lock !== undefined) update.lockState = message.lock;
      if (message.door !== undefined) update.doorState = message.door;
      if (message.battery !== undefined) update.battery = message.battery;
      if (message.rssi !== undefined) update.rssi = message.rssi;
      if (message.runState !== undefined) update.runState = message.runState;
      if (message.event === 'damage') {
        update.damageReports = [...(update.damageReports ?? []), { messageId: m.messageId, at }];
      }
      if (message.event === 'lockChanged' && message.lock === 'open') {
        update.unlocks = [
          ...(update.unlocks ?? []),
          { messageId: m.messageId, at, receivedAt: m.receivedAt },
        ];
      }
      let props = message.props;
      if (message.event === 'pinUsed' || message.event === 'pinLockout') {
        // The PIN's reference names one use, not a state of the device: it stays out of the runtime data.
        const { pinRef, ...rest } = props ?? {};
        props = rest;
        update.pinReports = [
          ...(update.pinReports ?? []),
          {
            messageId: m.messageId,
            at,
            event: message.event,
            ref: typeof pinRef === 'string' ? pinRef : null,
          },
        ];
      }
      if (props && Object.keys(props).length > 0) {
        update.props = { ...update.props, ...props };
      }
    }
    byDevice.set(m.deviceId, update);
  }
  return [...byDevice.values()].sort((a, b) =>
    a.deviceId < b.deviceId ? -1 : a.deviceId > b.deviceId ? 1 : 0,
  );
}

/** Drops repeats of the same (device, message id) inside one batch, keeping the first. */
export function distinctMessages<T extends { deviceId: string; messageId: string }>(
  messages: readonly T[],
): T[] {
  // Per device its first message id, or the set of them once it has several: no key string per message.
  const seen = new Map<string, string | Set<string>>();
  const result: T[] = [];
  for (const m of messages) {
    const ids = seen.get(m.deviceId);
    if (ids === undefined) {
      seen.set(m.deviceId, m.messageId);
    } else if (typeof ids === 'string') {
      if (ids === m.messageId) continue;
      seen.set(m.deviceId, new Set([ids, m.messageId]));
    } else {
      if (ids.has(m.messageId)) continue;
      ids.add(m.messageId);
    }
    result.push(m);
  }
  return result;
}
