import {
  CHIRPSTACK_EVENT_FILTER,
  decodeChirpstackEvent,
  type InboundMessage,
  parseChirpstackTopic,
} from '@uiot/device-protocol';
import type { BusClient } from '../../../infra/mqtt/bus-client.ts';
import type { IngestPipeline } from '../ingest/ingest-pipeline.ts';
import { SHARE_GROUP } from './native-mqtt.ts';

/**
 * LoRaWAN locks through ChirpStack v4's MQTT integration: uplinks, status (battery), ack and txack events
 * of `application/{applicationId}/device/{devEui}/event/{event}`; the device is the registered one with
 * that devEUI. Events the console does not use (join, log, location) are acknowledged and ignored.
 */
export async function startChirpstackAdapter(
  bus: BusClient,
  ingest: IngestPipeline,
  now: () => number = Date.now,
): Promise<() => Promise<void>> {
  return bus.subscribe(`${SHARE_GROUP}${CHIRPSTACK_EVENT_FILTER}`, { qos: 1 }, async (topic, payload) => {
    const place = parseChirpstackTopic(topic);
    if (!place) {
      ingest.refuse('invalid', { protocol: 'chirpstack', topic, detail: 'not a ChirpStack event topic' });
      return;
    }
    const decoded = decodeChirpstackEvent(place.event, payload);
    if (!decoded.ok) {
      ingest.refuse(decoded.reason, { protocol: 'chirpstack', topic, detail: decoded.detail });
      return;
    }
    if (decoded.value === null) return;
    if (decoded.value.devEui !== place.devEui) {
      ingest.refuse('invalid', { protocol: 'chirpstack', topic, detail: 'devEui differs from the topic' });
      return;
    }
    const inbound: InboundMessage = {
      protocol: 'chirpstack',
      address: { by: 'devEui', devEui: decoded.value.devEui, applicationId: place.applicationId },
      message: decoded.value.message,
      raw: payload.toString('utf8'),
      receivedAt: now(),
    };
    await ingest.submit(inbound);
  });
}
