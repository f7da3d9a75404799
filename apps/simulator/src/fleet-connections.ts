/**
 * The fleet's network connections: a link per device by its protocol (one ChirpStack integration carries
 * every LoRaWAN device), opened in waves.
 */
import { ChirpstackIntegration } from './chirpstack-link.ts';
import type { Connection, DeviceSession } from './device-link.ts';
import type { DeviceRuntime } from './fleet-device.ts';
import type { FleetOptions } from './fleet-options.ts';
import type { FleetRun } from './fleet-run.ts';
import { NativeMqttLink } from './native-mqtt-link.ts';
import { TcpDirectLink } from './tcp-direct-link.ts';

const DEFAULT_CONNECT_CONCURRENCY = 100;
/** ChirpStack asks a device for its battery level now and then (DevStatusReq); here every 12th uplink. */
const CHIRPSTACK_STATUS_EVERY = 12;

/** Gives every device its link; returns the connections to open, the ChirpStack integration first. */
export function linkDevices(
  runtimes: readonly DeviceRuntime[],
  sessionOf: (runtime: DeviceRuntime) => DeviceSession,
  options: FleetOptions,
  runPrefix: string,
): { connections: Connection[]; loraDevices: number } {
  const connections: Connection[] = [];
  const loraSessions: DeviceSession[] = [];
  for (const runtime of runtimes) {
    const session = sessionOf(runtime);
    switch (runtime.device.protocol) {
      case 'mqtt': {
        const link = new NativeMqttLink(session, options.mqttUrl as string);
        runtime.link = link;
        connections.push(link);
        break;
      }
      case 'tcp': {
        const link = new TcpDirectLink(session, options.tcp as { host: string; port: number });
        runtime.link = link;
        connections.push(link);
        break;
      }
      case 'chirpstack':
        loraSessions.push(session);
        break;
    }
  }
  if (loraSessions.length > 0) {
    const chirpstack = options.chirpstack as NonNullable<FleetOptions['chirpstack']>;
    const integration = new ChirpstackIntegration(loraSessions, {
      url: options.mqttUrl as string,
      username: chirpstack.username,
      password: chirpstack.password,
      applicationId: chirpstack.applicationId,
      clientSuffix: runPrefix,
      statusEveryUplinks: options.mode.kind === 'behaviour' ? CHIRPSTACK_STATUS_EVERY : 0,
    });
    for (const session of loraSessions) {
      const runtime = runtimes[session.index] as DeviceRuntime;
      runtime.link = integration.link(session.device.devEui as string);
    }
    // First, so that all LoRaWAN devices come up with the first connection.
    connections.unshift(integration);
  }
  return { connections, loraDevices: loraSessions.length };
}

/**
 * Opens the connections a few at a time (opening 1 000 at once would look like an attack to a broker):
 * the next one as soon as an earlier one's first attempt settled, until the run stops. Returns the list of
 * those opened so far, which grows as the waves go on.
 */
export function openInWaves(
  connections: readonly Connection[],
  run: FleetRun,
  concurrency = DEFAULT_CONNECT_CONCURRENCY,
): readonly Connection[] {
  const opened: Connection[] = [];
  let next = 0;
  let connecting = 0;
  const openMore = (): void => {
    while (!run.stopped && connecting < concurrency && next < connections.length) {
      const connection = connections[next] as Connection;
      next += 1;
      connecting += 1;
      opened.push(connection);
      connection.open(() => {
        connecting -= 1;
        openMore();
      });
    }
  };
  openMore();
  return opened;
}
