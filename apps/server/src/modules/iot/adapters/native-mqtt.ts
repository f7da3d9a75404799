import {
  decodeNativeReport,
  decodeNativeResult,
  type InboundMessage,
  NATIVE_ACK_FILTER,
  NATIVE_UP_FILTER,
  parseDeviceTopic,
} from '@uiot/device-protocol';
import type { BusClient } from '../../../infra/mqtt/bus-client.ts';
import type { IngestPipeline } from '../ingest/ingest-pipeline.ts';

/** Shared subscription group of the server instances (several servers split the device traffic). */
export const SHARE_GROUP = '$share/uiot/';

/**
 * Native MQTT devices (ARCHITECTURE §5): reports on `dev/{stationId}/{code}/up`, command results on
 * `.../ack`, QoS 1. The handler's promise settles after the message is committed, so the bus client
 * acknowledges it only then.
 */
export async function startNativeMqttAdapter(
  bus: BusClient,
  ingest: IngestPipeline,
  now: () => number = Date.now,
): Promise<() => Promise<void>> {
  const handle = async (topic: string, payload: Buffer): Promise<void> => {
    const address = parseDeviceTopic(topic);
    if (!address || address.channel === 'down') {
      ingest.refuse('invalid', { protocol: 'mqtt', topic, detail: 'not a device topic' });
      return;
    }
    const decoded = address.channel === 'up' ? decodeNativeReport(payload) : decodeNativeResult(payload);
    if (!decoded.ok) {
      ingest.refuse(decoded.reason, { protocol: 'mqtt', topic, detail: decoded.detail });
      return;
    }
    const inbound: InboundMessage = {
      protocol: 'mqtt',
      address: { by: 'code', stationId: address.stationId, code: address.code },
      message: decoded.value,
      raw: payload.toString('utf8'),
      receivedAt: now(),
    };
    await ingest.submit(inbound);
  };
  const offUp = await bus.subscribe(`${SHARE_GROUP}${NATIVE_UP_FILTER}`, { qos: 1 }, handle);
  const offAck = await bus.subscribe(`${SHARE_GROUP}${NATIVE_ACK_FILTER}`, { qos: 1 }, handle);
  return async () => {
    await offUp();
    await offAck();
  };
}
