import {
  type DecodeFailure,
  decodeNativeReport,
  decodeNativeResult,
  MAX_NATIVE_PAYLOAD_BYTES,
  NATIVE_ACK_FILTER,
  NATIVE_UP_FILTER,
  parseDeviceTopic,
  payloadText,
} from '@uiot/device-protocol';
import type { BusClient } from '../../../infra/mqtt/bus-client.ts';
import type { IngestOutcome, IngestPipeline } from '../ingest/ingest-pipeline.ts';

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
  const refuse = (topic: string, failure: { reason: DecodeFailure; detail: string }): undefined => {
    ingest.refuse(failure.reason, { protocol: 'mqtt', topic, detail: failure.detail });
    return undefined;
  };
  // Not async: a refused message settles nothing (the bus client acknowledges it at once), and a report's
  // promise is the pipeline's own, settled at its commit.
  const handle = (topic: string, payload: Buffer): Promise<IngestOutcome> | undefined => {
    const address = parseDeviceTopic(topic);
    if (!address || address.channel === 'down') {
      return refuse(topic, { reason: 'invalid', detail: 'not a device topic' });
    }
    // Decoded once: the text is both what is parsed and the raw message kept in the history.
    const text = payloadText(payload, MAX_NATIVE_PAYLOAD_BYTES);
    if (!text.ok) return refuse(topic, text);
    const decoded =
      address.channel === 'up' ? decodeNativeReport(text.value) : decodeNativeResult(text.value);
    if (!decoded.ok) return refuse(topic, decoded);
    return ingest.submit({
      protocol: 'mqtt',
      address: { by: 'code', stationId: address.stationId, code: address.code },
      message: decoded.value,
      raw: text.value,
      receivedAt: now(),
    });
  };
  const offUp = await bus.subscribe(`${SHARE_GROUP}${NATIVE_UP_FILTER}`, { qos: 1 }, handle);
  const offAck = await bus.subscribe(`${SHARE_GROUP}${NATIVE_ACK_FILTER}`, { qos: 1 }, handle);
  return async () => {
    await offUp();
    await offAck();
  };
}
