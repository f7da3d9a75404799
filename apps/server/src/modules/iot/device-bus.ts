import type { BusClient } from '../../infra/mqtt/bus-client.ts';
import { startChirpstackAdapter } from './adapters/chirpstack.ts';
import { startNativeMqttAdapter } from './adapters/native-mqtt.ts';
import type { IngestPipeline } from './ingest/ingest-pipeline.ts';

/**
 * The MQTT side of the device bus: native devices and the ChirpStack integration, both feeding ingest.
 * Returns the function that unsubscribes them.
 */
export async function startDeviceBus(bus: BusClient, ingest: IngestPipeline): Promise<() => Promise<void>> {
  const stops = [await startNativeMqttAdapter(bus, ingest), await startChirpstackAdapter(bus, ingest)];
  return async () => {
    for (const stop of stops) await stop();
  };
}
