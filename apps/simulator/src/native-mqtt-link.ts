/**
 * A lock on the native MQTT protocol: its own MQTT 3.1.1 connection, reports on `up`, results on `ack`,
 * commands from `down` (ARCHITECTURE §5).
 */
import {
  decodeNativeCommand,
  deviceTopic,
  encodeNativeReport,
  encodeNativeResult,
} from '@uiot/device-protocol';
import { connect, type IClientPublishOptions, type MqttClient } from 'mqtt';
import {
  type Connection,
  type DeviceLink,
  type DeviceSession,
  describeMqttError,
  endMqttClient,
  redactUrl,
  type SendCallback,
} from './device-link.ts';
import type { ReportToSend } from './lock-model.ts';

const QOS1: IClientPublishOptions = { qos: 1 };

export class NativeMqttLink implements DeviceLink, Connection {
  private readonly client: MqttClient;
  private readonly upTopic: string;
  private readonly ackTopic: string;
  private readonly downTopic: string;
  private readonly where: string;
  private settled: (() => void) | null = null;
  private subscribed = false;

  constructor(
    private readonly session: DeviceSession,
    url: string,
  ) {
    const { stationId, code, secret } = session.device;
    this.upTopic = deviceTopic(stationId, code, 'up');
    this.ackTopic = deviceTopic(stationId, code, 'ack');
    this.downTopic = deviceTopic(stationId, code, 'down');
    this.where = redactUrl(url);
    this.client = connect(url, {
      protocolVersion: 4,
      clientId: `dev-${code}`,
      username: code,
      ...(secret === undefined ? {} : { password: secret }),
      clean: true,
      keepalive: 60,
      reconnectPeriod: 1000,
      // A refused CONNACK (a broker restarting behind its auth hook) is retried like a lost connection.
      reconnectOnConnackError: true,
      connectTimeout: 10_000,
      manualConnect: true,
    });
    this.client.on('connect', () => this.onConnect());
    this.client.on('close', () => this.session.down());
    this.client.on('error', (error) => {
      this.session.connectFailed(describeMqttError(error), this.where);
      this.settle();
    });
    this.client.on('message', (topic, payload) => {
      if (topic === this.downTopic) this.onCommand(payload);
    });
  }

  open(settled: () => void): void {
    this.settled = settled;
    this.client.connect();
  }

  send(report: ReportToSend, done: SendCallback): void {
    // mqtt.js keeps QoS 1 publishes queued while disconnected and resends unacknowledged ones on reconnect.
    this.client.publish(this.upTopic, encodeNativeReport(report), QOS1, done);
  }

  close(): Promise<void> {
    return endMqttClient(this.client);
  }

  private onConnect(): void {
    if (this.subscribed) {
      // mqtt.js subscribes again by itself after a reconnect.
      this.session.up();
      return;
    }
    this.client.subscribe(this.downTopic, { qos: 1 }, (error) => {
      if (error) {
        this.session.connectFailed(error, this.where);
        this.settle();
        return;
      }
      this.subscribed = true;
      this.session.up();
      this.settle();
    });
  }

  private onCommand(payload: Buffer): void {
    const command = decodeNativeCommand(payload);
    if (!command.ok) {
      this.session.warn({ reason: command.reason, detail: command.detail }, 'refused a malformed command');
      return;
    }
    const answer = this.session.command(command.value);
    if (answer === null) return;
    this.client.publish(this.ackTopic, encodeNativeResult(answer), QOS1);
    this.session.resultSent();
  }

  private settle(): void {
    const settled = this.settled;
    this.settled = null;
    settled?.();
  }
}
