import { ResultCode } from '@uiot/contracts';
import {
  chirpstackDownTopic,
  type DeviceCommand,
  deviceTopic,
  encodeChirpstackDown,
  encodeLockCommand,
  encodeNativeCommand,
  encodeTcpCommand,
  LOCK_FPORT,
  type NbPlatform,
  nbPlatformDeviceIdOf,
} from '@uiot/device-protocol';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import type { BusClient } from '../../infra/mqtt/bus-client.ts';
import type { NbCommandPlatforms } from '../../infra/nbiot/index.ts';
import {
  type CommandSend,
  type CommandTransport,
  lockSequenceOf,
  type SentCommand,
} from '../commands/index.ts';
import { device } from '../devices/devices.schema.ts';
import type { TcpDirectListener } from './adapters/tcp-direct.ts';
import { historyOfDevice } from './device-history.service.ts';
import { deviceHistory, deviceRuntime } from './iot.schema.ts';

const NB_IOT_TYPES = new Set<string>(['ChinaTelecom', 'ChinaUnicom', 'ChinaMobile']);
/** Callbacks looked at for the platform's id of a device (the newest first). */
const LEARNT_ID_ROWS = 5;

/**
 * Which way a command reaches a device, from its ledger entry and the NB-IoT platforms whose command API is
 * configured (pure). An NB-IoT lock is reached through its carrier's platform, by IMEI.
 */
export function commandTransportOf(
  target: {
    iotType: string | null;
    netType: string | null;
    code: string | null;
    devEui: string | null;
    imei?: string | null;
  },
  nbConfigured: ReadonlySet<string> = new Set(),
): CommandTransport | { unsupported: string } {
  if (target.iotType === 'TcpDirect') return target.code ? 'tcp' : { unsupported: 'TcpDirect' };
  if (target.iotType && NB_IOT_TYPES.has(target.iotType)) {
    return nbConfigured.has(target.iotType) && target.imei ? 'nbiot' : { unsupported: target.iotType };
  }
  if (target.netType === 'LoRaWan' || (target.devEui && !target.code)) {
    return target.devEui ? 'chirpstack' : { unsupported: 'LoRaWAN' };
  }
  return target.code ? 'mqtt' : { unsupported: target.netType ?? 'MQTT' };
}

/**
 * The lock's binary command (lock-payload.ts), its sequence from the command id. The payload carries
 * numbers only: a text or flag cannot be dropped silently (a setPassword without its password would still
 * be answered), and a command without a lock code cannot be sent; either is CommandUnsupported naming
 * `network`.
 */
export function lockPayloadOf(command: DeviceCommand, network: string): Uint8Array {
  const unsupported = () =>
    new AppError(ResultCode.CommandUnsupported, { params: { network: `${network} ${command.cmd}` } });
  const entries = Object.entries(command.params ?? {});
  if (entries.some(([, value]) => typeof value !== 'number')) throw unsupported();
  try {
    return encodeLockCommand({
      seq: lockSequenceOf(command.id),
      cmd: command.cmd,
      params: Object.fromEntries(entries) as Record<string, number>,
    });
  } catch {
    throw unsupported();
  }
}

/**
 * Sends a command down to one registered device by the way it is connected (ARCHITECTURE §5): native MQTT
 * `dev/{stationId}/{code}/down` (QoS 1), a ChirpStack downlink to the application its uplinks came from
 * (the lock's binary payload, confirmed), a TcpDirect frame on its open connection, or its NB-IoT carrier's
 * command API (the lock's binary payload, queued by the platform until the lock wakes). Delivery states,
 * retries and expiry are the command service's.
 */
export class DeviceCommandSender implements CommandSend {
  private readonly nbConfigured: ReadonlySet<string>;

  constructor(
    private readonly db: Db,
    private readonly bus: Pick<BusClient, 'publish'>,
    private readonly tcp: Pick<TcpDirectListener, 'send'>,
    private readonly nbPlatforms: NbCommandPlatforms = {},
  ) {
    this.nbConfigured = new Set(Object.keys(nbPlatforms));
  }

  async send(deviceId: string, command: DeviceCommand): Promise<SentCommand> {
    const [target] = await this.db
      .select({
        code: device.code,
        stationId: device.stationId,
        regist: device.regist,
        iotType: device.iotType,
        netType: device.netType,
        devEui: device.devEui,
        imei: device.imei,
        productId: device.productId,
        applicationId: deviceRuntime.chirpstackApplicationId,
      })
      .from(device)
      .leftJoin(deviceRuntime, eq(deviceRuntime.deviceId, device.id))
      .where(eq(device.id, deviceId));
    if (!target) throw new AppError(ResultCode.NotFound);
    if (!target.regist) throw new AppError(ResultCode.DeviceNotRegistered);
    const transport = commandTransportOf(target, this.nbConfigured);
    if (typeof transport === 'object') {
      throw new AppError(ResultCode.CommandUnsupported, { params: { network: transport.unsupported } });
    }
    switch (transport) {
      case 'tcp':
        if (!this.tcp.send(target.code!, encodeTcpCommand(command))) {
          throw new AppError(ResultCode.DeviceNotConnected);
        }
        return { transport, receiveId: command.id };
      case 'chirpstack': {
        // The application is learnt from the device's uplinks: before its first one there is nowhere to send.
        if (!target.applicationId) throw new AppError(ResultCode.DeviceNotConnected);
        const data = lockPayloadOf(command, 'LoRaWAN');
        await this.bus.publish(
          chirpstackDownTopic(target.applicationId, target.devEui!),
          encodeChirpstackDown({
            devEui: target.devEui!,
            confirmed: true,
            fPort: LOCK_FPORT,
            data,
            id: command.id,
          }),
          { qos: 1 },
        );
        return { transport, receiveId: `seq:${lockSequenceOf(command.id)}` };
      }
      case 'nbiot':
        return this.sendToPlatform(deviceId, target.iotType as NbPlatform, target, command);
      default:
        await this.bus.publish(
          deviceTopic(target.stationId, target.code!, 'down'),
          encodeNativeCommand(command),
          {
            qos: 1,
          },
        );
        return { transport, receiveId: command.id };
    }
  }

  /** Hands the command to the lock's NB-IoT platform; the platform's command id names it from then on. */
  private async sendToPlatform(
    deviceId: string,
    platform: NbPlatform,
    ledger: { imei: string | null; productId: string | null },
    command: DeviceCommand,
  ): Promise<SentCommand> {
    const client = this.nbPlatforms[platform]!;
    const payload = lockPayloadOf(command, platform);
    const target = {
      imei: ledger.imei!,
      productId: ledger.productId || null,
      // OneNET addresses devices by IMEI; the others by their own id, which their callbacks name.
      platformDeviceId:
        platform === 'ChinaMobile' ? null : await this.learntPlatformId(deviceId, platform, ledger.imei!),
    };
    const { receiveId } = await client.send(target, payload, command);
    return { transport: 'nbiot', receiveId, platformDeviceId: client.deviceIdOf(target), held: true };
  }

  /** The platform's id of the device, from its latest callbacks (kept as received in its history). */
  private async learntPlatformId(
    deviceId: string,
    platform: NbPlatform,
    imei: string,
  ): Promise<string | null> {
    const rows = await this.db
      .select({ raw: deviceHistory.raw })
      .from(deviceHistory)
      .where(and(historyOfDevice(deviceId), eq(deviceHistory.protocol, 'nbiot')))
      .orderBy(desc(deviceHistory.reportTime))
      .limit(LEARNT_ID_ROWS);
    for (const { raw } of rows) {
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        continue;
      }
      const id = nbPlatformDeviceIdOf(platform, body, imei);
      if (id) return id;
    }
    return null;
  }
}
