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
} from '@uiot/device-protocol';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import type { BusClient } from '../../infra/mqtt/bus-client.ts';
import {
  type CommandSend,
  type CommandTransport,
  lockSequenceOf,
  type SentCommand,
} from '../commands/index.ts';
import { device } from '../devices/devices.schema.ts';
import type { TcpDirectListener } from './adapters/tcp-direct.ts';
import { deviceRuntime } from './iot.schema.ts';

const NB_IOT_TYPES = new Set(['ChinaTelecom', 'ChinaUnicom', 'ChinaMobile']);

/** Which way a command reaches a device, from its ledger entry (pure). */
export function commandTransportOf(target: {
  iotType: string | null;
  netType: string | null;
  code: string | null;
  devEui: string | null;
}): CommandTransport | { unsupported: string } {
  if (target.iotType === 'TcpDirect') return target.code ? 'tcp' : { unsupported: 'TcpDirect' };
  if (target.iotType && NB_IOT_TYPES.has(target.iotType)) return { unsupported: target.iotType };
  if (target.netType === 'LoRaWan' || (target.devEui && !target.code)) {
    return target.devEui ? 'chirpstack' : { unsupported: 'LoRaWAN' };
  }
  return target.code ? 'mqtt' : { unsupported: target.netType ?? 'MQTT' };
}

/**
 * Sends a command down to one registered device by the way it is connected (ARCHITECTURE §5): native MQTT
 * `dev/{stationId}/{code}/down` (QoS 1), a ChirpStack downlink to the application its uplinks came from
 * (the lock's binary payload, confirmed), or a TcpDirect frame on its open connection. Delivery states,
 * retries and expiry are the command service's.
 */
export class DeviceCommandSender implements CommandSend {
  constructor(
    private readonly db: Db,
    private readonly bus: Pick<BusClient, 'publish'>,
    private readonly tcp: Pick<TcpDirectListener, 'send'>,
  ) {}

  async send(deviceId: string, command: DeviceCommand): Promise<SentCommand> {
    const [target] = await this.db
      .select({
        code: device.code,
        stationId: device.stationId,
        regist: device.regist,
        iotType: device.iotType,
        netType: device.netType,
        devEui: device.devEui,
        applicationId: deviceRuntime.chirpstackApplicationId,
      })
      .from(device)
      .leftJoin(deviceRuntime, eq(deviceRuntime.deviceId, device.id))
      .where(eq(device.id, deviceId));
    if (!target) throw new AppError(ResultCode.NotFound);
    if (!target.regist) throw new AppError(ResultCode.DeviceNotRegistered);
    const transport = commandTransportOf(target);
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
        const seq = lockSequenceOf(command.id);
        const entries = Object.entries(command.params ?? {});
        // The lock's binary payload carries numbers only: a text or flag cannot be dropped silently (a
        // setPassword without its password would still be answered).
        if (entries.some(([, value]) => typeof value !== 'number')) {
          throw new AppError(ResultCode.CommandUnsupported, {
            params: { network: `LoRaWAN ${command.cmd}` },
          });
        }
        const numeric = Object.fromEntries(entries) as Record<string, number>;
        let data: Uint8Array;
        try {
          data = encodeLockCommand({ seq, cmd: command.cmd, params: numeric });
        } catch {
          // The lock's binary payload has no code for this command.
          throw new AppError(ResultCode.CommandUnsupported, {
            params: { network: `LoRaWAN ${command.cmd}` },
          });
        }
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
        return { transport, receiveId: `seq:${seq}` };
      }
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
}
