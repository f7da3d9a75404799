/**
 * ChirpStack v4's MQTT integration, played for every LoRaWAN lock of the fleet over ONE connection: the
 * locks' uplinks become `event/up` (the lock's binary payload on fPort 10), and a downlink published to
 * `command/down` is answered the way ChirpStack and a class A lock would: `txack`, then `ack` when it was
 * confirmed, then an uplink carrying the lock's result.
 */
import { randomUUID } from 'node:crypto';
import {
  chirpstackEventTopic,
  decodeChirpstackDown,
  decodeLockCommand,
  encodeChirpstackAck,
  encodeChirpstackStatus,
  encodeChirpstackTxack,
  encodeChirpstackUp,
  encodeLockReport,
  encodeLockResult,
  LOCK_FPORT,
} from '@uiot/device-protocol';
import { connect, type IClientPublishOptions, type MqttClient, UniqueMessageIdProvider } from 'mqtt';
import {
  type Connection,
  type DeviceLink,
  type DeviceSession,
  describeMqttError,
  endMqttClient,
  redactUrl,
  type SendCallback,
} from './device-link.ts';
import type { ReportToSend, ResultToSend } from './lock-model.ts';

const QOS1: IClientPublishOptions = { qos: 1 };

/** Error codes of the lock's binary result (byte 5), by the lock's failure detail. */
export const LOCK_ERROR_CODES: Readonly<Record<string, number>> = Object.freeze({
  jammed: 1,
  damaged: 2,
  'unsupported command': 3,
});

export interface ChirpstackOptions {
  url: string;
  username: string;
  password: string;
  applicationId: string;
  /** Makes the integration's client id unique per run. */
  clientSuffix: string;
  /** Send an `event/status` (battery level) every this many uplinks of a lock; 0 never. */
  statusEveryUplinks: number;
}

interface LoraDevice {
  session: DeviceSession;
  devEui: string;
  upTopic: string;
  fCnt: number;
  fCntDown: number;
}

/** The lock report fields of the binary payload; one object reused, since encoding is synchronous. */
interface PayloadFields {
  event?: ReportToSend['event'];
  lock?: ReportToSend['lock'];
  door?: ReportToSend['door'];
  battery?: number;
  runState?: ReportToSend['runState'];
  props?: ReportToSend['props'];
}

export class ChirpstackIntegration implements Connection {
  private readonly client: MqttClient;
  private readonly devices = new Map<string, LoraDevice>();
  private readonly downFilter: string;
  private readonly where: string;
  private readonly scratch: PayloadFields = {};
  private settled: (() => void) | null = null;
  private subscribed = false;

  constructor(
    sessions: readonly DeviceSession[],
    private readonly options: ChirpstackOptions,
  ) {
    for (const session of sessions) {
      const devEui = (session.device.devEui ?? '').toLowerCase();
      this.devices.set(devEui, {
        session,
        devEui,
        upTopic: chirpstackEventTopic(options.applicationId, devEui, 'up'),
        fCnt: 0,
        fCntDown: 0,
      });
    }
    this.downFilter = `application/${options.applicationId}/device/+/command/down`;
    this.where = redactUrl(options.url);
    this.client = connect(options.url, {
      protocolVersion: 4,
      clientId: `chirpstack-${options.applicationId}-${options.clientSuffix}`,
      username: options.username,
      password: options.password,
      clean: true,
      keepalive: 30,
      reconnectPeriod: 1000,
      reconnectOnConnackError: true,
      connectTimeout: 10_000,
      manualConnect: true,
      // Many locks share this one connection: more than 65 535 publishes may wait for their PUBACK, and the
      // default provider would then hand out an id still in flight. This one makes a publish wait instead.
      messageIdProvider: new UniqueMessageIdProvider(),
    });
    this.client.on('connect', () => this.onConnect());
    this.client.on('close', () => {
      for (const device of this.devices.values()) device.session.down();
    });
    this.client.on('error', (error) => {
      const described = describeMqttError(error);
      for (const device of this.devices.values()) device.session.connectFailed(described, this.where);
      this.settle();
    });
    this.client.on('message', (topic, payload) => this.onDownlink(topic, payload));
  }

  /** The link of one LoRaWAN lock (its devEui must be among the sessions given to the constructor). */
  link(devEui: string): DeviceLink {
    const device = this.devices.get(devEui.toLowerCase());
    if (device === undefined) throw new RangeError(`no LoRaWAN device ${devEui} in this integration`);
    return { send: (report, done) => this.sendReport(device, report, done) };
  }

  open(settled: () => void): void {
    this.settled = settled;
    this.client.connect();
  }

  close(): Promise<void> {
    return endMqttClient(this.client);
  }

  private sendReport(device: LoraDevice, report: ReportToSend, done: SendCallback): void {
    const fields = this.scratch;
    fields.event = report.event;
    fields.lock = report.lock;
    fields.door = report.door;
    fields.battery = report.battery;
    fields.runState = report.runState;
    fields.props = report.props;
    device.fCnt += 1;
    const time = new Date(report.reportedAt ?? Date.now());
    const up = encodeChirpstackUp({
      applicationId: this.options.applicationId,
      devEui: device.devEui,
      deduplicationId: report.messageId,
      time,
      fCnt: device.fCnt,
      fPort: LOCK_FPORT,
      data: encodeLockReport(fields, device.fCnt & 0xffff),
      rssi: report.rssi ?? -90,
      deviceName: device.session.device.code,
    });
    this.client.publish(device.upTopic, up, QOS1, done);
    const every = this.options.statusEveryUplinks;
    if (every > 0 && device.fCnt % every === 0 && report.battery !== undefined) {
      const status = encodeChirpstackStatus({
        applicationId: this.options.applicationId,
        devEui: device.devEui,
        deduplicationId: randomUUID(),
        time,
        batteryLevel: report.battery,
      });
      this.client.publish(
        chirpstackEventTopic(this.options.applicationId, device.devEui, 'status'),
        status,
        QOS1,
      );
    }
  }

  private onConnect(): void {
    if (this.subscribed) {
      for (const device of this.devices.values()) device.session.up();
      return;
    }
    this.client.subscribe(this.downFilter, { qos: 1 }, (error) => {
      if (error) {
        for (const device of this.devices.values()) device.session.connectFailed(error, this.where);
        this.settle();
        return;
      }
      this.subscribed = true;
      for (const device of this.devices.values()) device.session.up();
      this.settle();
    });
  }

  private onDownlink(topic: string, payload: Buffer): void {
    // application/{applicationId}/device/{devEui}/command/down
    const device = this.devices.get((topic.split('/')[3] ?? '').toLowerCase());
    if (device === undefined) return;
    const down = decodeChirpstackDown(payload);
    if (!down.ok) {
      device.session.warn({ reason: down.reason, detail: down.detail }, 'refused a malformed downlink');
      return;
    }
    const { applicationId } = this.options;
    const queueItemId = down.value.id ?? randomUUID();
    device.fCntDown += 1;
    const time = new Date();
    this.client.publish(
      chirpstackEventTopic(applicationId, device.devEui, 'txack'),
      encodeChirpstackTxack({
        applicationId,
        devEui: device.devEui,
        time,
        queueItemId,
        fCntDown: device.fCntDown,
        downlinkId: Math.floor(Math.random() * 0xffffffff),
      }),
      QOS1,
    );
    if (down.value.confirmed) {
      this.client.publish(
        chirpstackEventTopic(applicationId, device.devEui, 'ack'),
        encodeChirpstackAck({
          applicationId,
          devEui: device.devEui,
          deduplicationId: randomUUID(),
          time,
          queueItemId,
          acknowledged: true,
          fCntDown: device.fCntDown,
        }),
        QOS1,
      );
    }
    if (down.value.fPort !== LOCK_FPORT) return;
    const command = decodeLockCommand(down.value.data);
    if (!command.ok) {
      device.session.warn(
        { reason: command.reason, detail: command.detail },
        'refused a malformed lock command',
      );
      return;
    }
    const { seq, cmd, params } = command.value;
    const answer = device.session.command({ id: `seq:${seq}`, cmd, params });
    if (answer === null) return;
    this.sendResult(device, seq, answer);
  }

  private sendResult(device: LoraDevice, seq: number, answer: ResultToSend): void {
    const outcome = answer.outcome === 'Success' ? 'Success' : 'Failure';
    const errorCode = answer.detail === undefined ? undefined : (LOCK_ERROR_CODES[answer.detail] ?? 0xff);
    device.fCnt += 1;
    this.client.publish(
      device.upTopic,
      encodeChirpstackUp({
        applicationId: this.options.applicationId,
        devEui: device.devEui,
        deduplicationId: answer.messageId,
        time: new Date(answer.reportedAt ?? Date.now()),
        fCnt: device.fCnt,
        fPort: LOCK_FPORT,
        data: encodeLockResult(seq, outcome, errorCode),
        rssi: -90,
        deviceName: device.session.device.code,
      }),
      QOS1,
    );
    device.session.resultSent();
  }

  private settle(): void {
    const settled = this.settled;
    this.settled = null;
    settled?.();
  }
}
