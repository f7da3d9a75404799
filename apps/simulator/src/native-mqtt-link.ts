/**
 * A lock on the native MQTT protocol: its own MQTT 3.1.1 connection, reports on `up`, results on `ack`,
 * commands from `down` (ARCHITECTURE §5).
 *
 * The lock speaks MQTT itself over a plain socket (mqtt-wire.ts) instead of through a general client: a load
 * run keeps 1 000 of these busy on the machine that also runs the broker, the server and the database, and
 * a general client's per-packet machinery cost half a core there. Like a general client it keeps every
 * publish until its PUBACK and sends the unacknowledged ones again (DUP) after a reconnect, so a broker
 * restart loses no QoS 1 report; sends while disconnected wait for the next connection.
 */
import { Socket } from 'node:net';
import {
  decodeNativeCommand,
  deviceTopic,
  encodeNativeReport,
  encodeNativeResult,
} from '@uiot/device-protocol';
import {
  type Connection,
  connackRefusal,
  type DeviceLink,
  type DeviceSession,
  redactUrl,
  type SendCallback,
} from './device-link.ts';
import type { ReportToSend } from './lock-model.ts';
import {
  DISCONNECT,
  encodeConnect,
  encodePuback,
  encodePublish,
  encodeSubscribe,
  encodeTopicName,
  type MqttPacket,
  MqttPacketReader,
  markDuplicate,
  PacketType,
  PINGREQ,
  parseConnack,
  parsePuback,
  parsePublish,
  parseSuback,
  SUBACK_FAILURE,
} from './mqtt-wire.ts';

export const MQTT_RECONNECT_MS = 1000;
/** How long the broker may take from the connection attempt to its CONNACK. */
export const MQTT_CONNECT_TIMEOUT_MS = 10_000;
export const MQTT_KEEPALIVE_SECONDS = 60;
/**
 * Publishes of one lock waiting for their PUBACK: packet ids are 1..65535, and one stays free for the
 * SUBSCRIBE that follows every CONNACK.
 */
export const MAX_UNACKNOWLEDGED = 65_534;
const MQTT_DEFAULT_PORT = 1883;
const KEEPALIVE_MS = MQTT_KEEPALIVE_SECONDS * 1000;
/** A broker that answers nothing this long after a PINGREQ is gone (MQTT's own 1.5 × keep-alive). */
const PING_TIMEOUT_MS = KEEPALIVE_MS * 1.5;
/** How long close() waits for the broker to close its side. */
const CLOSE_GRACE_MS = 1000;

/** A publish kept until its PUBACK: the encoded packet, sent again as it is (DUP set) after a reconnect. */
interface Unacknowledged {
  packet: Buffer;
  done: SendCallback;
}

const noop = (): void => {};

/** Host and port of an `mqtt://` or `tcp://` URL, or why the link cannot use it. */
export function plainMqttAddress(url: string): { host: string; port: number } | Error {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return new Error('not a URL');
  }
  if (parsed.protocol !== 'mqtt:' && parsed.protocol !== 'tcp:') {
    return new Error(
      `a native MQTT lock speaks plain MQTT over TCP (mqtt:// or tcp://), not ${parsed.protocol}//`,
    );
  }
  // An IPv6 literal keeps its brackets in URL.hostname; the socket wants the bare address.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') return new Error('the URL names no host');
  return { host, port: parsed.port === '' ? MQTT_DEFAULT_PORT : Number(parsed.port) };
}

export class NativeMqttLink implements DeviceLink, Connection {
  private readonly address: { host: string; port: number } | Error;
  private readonly where: string;
  private readonly connectPacket: Buffer;
  private readonly upTopic: Buffer;
  private readonly ackTopic: Buffer;
  private readonly downTopic: string;
  private socket: Socket | null = null;
  private reader = new MqttPacketReader();
  /** The current socket's CONNACK accepted the connection: publishes go out as they come. */
  private accepted = false;
  /** The current connection's subscription was granted: the device is up. */
  private subscribed = false;
  /** The SUBSCRIBE waiting for its SUBACK, 0 when none. */
  private subscribeId = 0;
  /** Why the current connection failed; reported when its socket closes. */
  private failure: Error | null = null;
  private closing = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private connectTimer: NodeJS.Timeout | null = null;
  private keepaliveTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private lastWriteAt = 0;
  /** Something arrived since the PINGREQ that armed pingTimer. */
  private heard = false;
  private lastPacketId = 0;
  /** By packet id, in sending order: sent again in that order after a reconnect. */
  private readonly unacknowledged = new Map<number, Unacknowledged>();
  private settled: (() => void) | null = null;

  constructor(
    private readonly session: DeviceSession,
    url: string,
  ) {
    const { stationId, code, secret } = session.device;
    this.upTopic = encodeTopicName(deviceTopic(stationId, code, 'up'));
    this.ackTopic = encodeTopicName(deviceTopic(stationId, code, 'ack'));
    this.downTopic = deviceTopic(stationId, code, 'down');
    this.where = redactUrl(url);
    this.address = plainMqttAddress(url);
    this.connectPacket = encodeConnect({
      clientId: `dev-${code}`,
      username: code,
      ...(secret === undefined ? {} : { password: secret }),
      keepAliveSeconds: MQTT_KEEPALIVE_SECONDS,
      cleanSession: true,
    });
  }

  open(settled: () => void): void {
    this.settled = settled;
    if (this.address instanceof Error) {
      // Retrying cannot fix the URL.
      this.session.connectFailed(this.address, this.where);
      this.settle();
      return;
    }
    this.connect();
  }

  /** `done` runs when the broker acknowledges the report (PUBACK). */
  send(report: ReportToSend, done: SendCallback): void {
    this.publish(this.upTopic, encodeNativeReport(report), done);
  }

  close(): Promise<void> {
    this.closing = true;
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.clearConnectionTimers();
    const abandoned = [...this.unacknowledged.values()];
    this.unacknowledged.clear();
    const stopped = new Error('the simulator stopped');
    for (const message of abandoned) message.done(stopped);
    const socket = this.socket;
    if (socket === null || socket.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      socket.once('close', () => resolve());
      if (this.accepted) socket.write(DISCONNECT);
      socket.end();
      // A broker that does not close its side is not waited for.
      setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
    });
  }

  /** Keeps a QoS 1 publish until its PUBACK; writes it now when connected, else after the next CONNACK. */
  private publish(topicName: Buffer, payload: string, done: SendCallback): void {
    if (this.closing) {
      done(new Error('the simulator stopped'));
      return;
    }
    if (this.unacknowledged.size >= MAX_UNACKNOWLEDGED) {
      done(new Error(`more than ${MAX_UNACKNOWLEDGED} MQTT publishes unacknowledged`));
      return;
    }
    const packetId = this.nextPacketId();
    const packet = encodePublish(topicName, packetId, payload);
    this.unacknowledged.set(packetId, { packet, done });
    const socket = this.socket;
    if (this.accepted && socket !== null && !socket.destroyed) this.write(socket, packet);
  }

  /** The next packet id after the last one, skipping those still in use. */
  private nextPacketId(): number {
    let id = this.lastPacketId;
    do {
      id = id === 0xffff ? 1 : id + 1;
    } while (this.unacknowledged.has(id) || id === this.subscribeId);
    this.lastPacketId = id;
    return id;
  }

  private write(socket: Socket, bytes: Buffer): void {
    socket.write(bytes);
    this.lastWriteAt = Date.now();
  }

  private connect(): void {
    this.reconnectTimer = null;
    if (this.closing || this.address instanceof Error) return;
    const socket = new Socket();
    this.socket = socket;
    this.reader = new MqttPacketReader();
    this.failure = null;
    this.accepted = false;
    this.subscribed = false;
    this.subscribeId = 0;
    this.connectTimer = setTimeout(
      () => this.drop(socket, new Error(`no CONNACK within ${MQTT_CONNECT_TIMEOUT_MS} ms`)),
      MQTT_CONNECT_TIMEOUT_MS,
    );
    socket.on('connect', () => {
      socket.setNoDelay(true);
      this.write(socket, this.connectPacket);
    });
    socket.on('data', (chunk: Buffer) => this.onData(socket, chunk));
    socket.on('error', (error) => {
      if (this.socket === socket) this.failure ??= error;
    });
    socket.on('close', () => this.onClose(socket));
    socket.connect(this.address.port, this.address.host);
  }

  private onData(socket: Socket, chunk: Buffer): void {
    if (this.socket !== socket || socket.destroyed) return;
    this.heard = true;
    const reader = this.reader;
    reader.push(chunk);
    for (let packet = reader.next(); packet !== null; packet = reader.next()) {
      if (!this.onPacket(socket, packet)) return;
    }
    if (reader.failure !== null)
      this.drop(socket, new Error(`bad packet from the broker: ${reader.failure}`));
  }

  /** Handles one packet; false when it made the connection go. */
  private onPacket(socket: Socket, packet: MqttPacket): boolean {
    if (!this.accepted && packet.type !== PacketType.CONNACK) {
      return this.drop(socket, new Error(`packet type ${packet.type} from the broker before its CONNACK`));
    }
    switch (packet.type) {
      case PacketType.PUBACK:
        return this.onPuback(socket, packet);
      case PacketType.PUBLISH:
        return this.onPublish(socket, packet);
      case PacketType.PINGRESP:
        if (packet.flags === 0 && packet.body.length === 0) return true;
        return this.drop(socket, new Error('malformed PINGRESP from the broker'));
      case PacketType.SUBACK:
        return this.onSuback(socket, packet);
      case PacketType.CONNACK:
        return this.onConnack(socket, packet);
      default:
        return this.drop(socket, new Error(`unexpected packet type ${packet.type} from the broker`));
    }
  }

  private onPuback(socket: Socket, packet: MqttPacket): boolean {
    const packetId = parsePuback(packet);
    if (packetId < 0) return this.drop(socket, new Error('malformed PUBACK from the broker'));
    const acknowledged = this.unacknowledged.get(packetId);
    // A PUBACK for a publish already forgotten (acknowledged twice after a resend) changes nothing.
    if (acknowledged === undefined) return true;
    this.unacknowledged.delete(packetId);
    acknowledged.done();
    return true;
  }

  private onConnack(socket: Socket, packet: MqttPacket): boolean {
    if (this.accepted) return this.drop(socket, new Error('a second CONNACK from the broker'));
    const returnCode = parseConnack(packet);
    if (returnCode < 0) return this.drop(socket, new Error('malformed CONNACK from the broker'));
    this.clearTimer('connectTimer');
    // A refusal (a broker restarting behind its auth hook) is retried like a lost connection.
    if (returnCode !== 0) return this.drop(socket, connackRefusal(returnCode));
    this.accepted = true;
    // A clean session starts without subscriptions: every connection subscribes again.
    this.subscribeId = this.nextPacketId();
    socket.cork();
    this.write(socket, encodeSubscribe(this.subscribeId, this.downTopic, 1));
    // Unacknowledged publishes of the last connection (DUP already set), then those queued meanwhile.
    for (const { packet: publish } of this.unacknowledged.values()) socket.write(publish);
    socket.uncork();
    this.scheduleKeepalive(socket, KEEPALIVE_MS);
    return true;
  }

  private onSuback(socket: Socket, packet: MqttPacket): boolean {
    const suback = parseSuback(packet);
    if (suback === null || suback.packetId !== this.subscribeId || suback.granted.length !== 1) {
      return this.drop(socket, new Error('malformed or unexpected SUBACK from the broker'));
    }
    this.subscribeId = 0;
    if (suback.granted[0] === SUBACK_FAILURE) {
      return this.drop(socket, new Error(`the broker refused the subscription to ${this.downTopic}`));
    }
    this.subscribed = true;
    this.session.up();
    this.settle();
    return true;
  }

  private onPublish(socket: Socket, packet: MqttPacket): boolean {
    const publish = parsePublish(packet);
    if (publish === null) return this.drop(socket, new Error('malformed PUBLISH from the broker'));
    // The subscription asked for QoS 1: a QoS 2 delivery is a broker out of step.
    if (publish.qos === 2) return this.drop(socket, new Error('a QoS 2 PUBLISH from the broker'));
    if (publish.qos === 1) this.write(socket, encodePuback(publish.packetId));
    if (publish.topic === this.downTopic) this.onCommand(publish.payload);
    return true;
  }

  private onCommand(payload: Buffer): void {
    const command = decodeNativeCommand(payload);
    if (!command.ok) {
      this.session.warn({ reason: command.reason, detail: command.detail }, 'refused a malformed command');
      return;
    }
    const answer = this.session.command(command.value);
    if (answer === null) return;
    this.publish(this.ackTopic, encodeNativeResult(answer), noop);
    this.session.resultSent();
  }

  /** Sends a PINGREQ when nothing was written for a keep-alive period, and checks that the broker answers. */
  private scheduleKeepalive(socket: Socket, delayMs: number): void {
    this.keepaliveTimer = setTimeout(() => {
      this.keepaliveTimer = null;
      if (this.socket !== socket || socket.destroyed) return;
      const idleMs = Date.now() - this.lastWriteAt;
      if (idleMs < KEEPALIVE_MS) {
        this.scheduleKeepalive(socket, KEEPALIVE_MS - idleMs);
        return;
      }
      this.write(socket, PINGREQ);
      if (this.pingTimer === null) {
        this.heard = false;
        this.pingTimer = setTimeout(() => this.checkPingAnswered(socket), PING_TIMEOUT_MS);
      }
      this.scheduleKeepalive(socket, KEEPALIVE_MS);
    }, delayMs);
  }

  private checkPingAnswered(socket: Socket): void {
    this.pingTimer = null;
    if (this.socket !== socket || this.heard) return;
    this.drop(socket, new Error(`no packet from the broker within ${PING_TIMEOUT_MS / 1000} s of a PINGREQ`));
  }

  /** Ends the connection for `reason` (reported when it has closed); a reconnect follows. Always false. */
  private drop(socket: Socket, reason: Error): false {
    if (this.socket === socket) this.failure ??= reason;
    socket.destroy();
    return false;
  }

  private onClose(socket: Socket): void {
    if (this.socket !== socket) return;
    this.socket = null;
    this.clearConnectionTimers();
    if (this.accepted) {
      this.accepted = false;
      // Every kept publish went out on this connection: after the reconnect it is a possible duplicate.
      for (const { packet } of this.unacknowledged.values()) markDuplicate(packet);
    }
    if (!this.closing) {
      const failure =
        this.failure ??
        (this.subscribed ? null : new Error('the broker closed the connection before it was set up'));
      if (failure !== null) {
        this.session.connectFailed(failure, this.where);
        this.settle();
      }
    }
    this.subscribed = false;
    this.session.down();
    if (!this.closing) this.reconnectTimer = setTimeout(() => this.connect(), MQTT_RECONNECT_MS);
  }

  private clearConnectionTimers(): void {
    this.clearTimer('connectTimer');
    this.clearTimer('keepaliveTimer');
    this.clearTimer('pingTimer');
  }

  private clearTimer(name: 'connectTimer' | 'keepaliveTimer' | 'pingTimer'): void {
    const timer = this[name];
    if (timer !== null) clearTimeout(timer);
    this[name] = null;
  }

  private settle(): void {
    const settled = this.settled;
    this.settled = null;
    settled?.();
  }
}
