/**
 * MQTT 3.1.1 (protocol level 4) on the wire, as much of it as a lock needs: CONNECT, one SUBSCRIBE, QoS 1
 * PUBLISH both ways, PUBACK and PINGREQ out; CONNACK, SUBACK, PUBLISH, PUBACK and PINGRESP in. Pure
 * functions and a byte-stream reader, no I/O: NativeMqttLink owns the socket.
 *
 * Written by hand rather than through a general MQTT library because a load run keeps 1 000 locks busy
 * next to the server under test: a publish here is one Buffer allocation, and a PUBACK is read in place.
 */

/** Control packet types (the high nibble of the first byte). */
export const PacketType = Object.freeze({
  CONNECT: 1,
  CONNACK: 2,
  PUBLISH: 3,
  PUBACK: 4,
  SUBSCRIBE: 8,
  SUBACK: 9,
  PINGREQ: 12,
  PINGRESP: 13,
  DISCONNECT: 14,
});

/** The largest remaining length four varint bytes can carry. */
export const MAX_REMAINING_LENGTH = 268_435_455;
/** What a lock accepts from the broker in one packet: a command is small, a huge packet is a broken peer. */
export const MAX_INCOMING_PACKET_BYTES = 256 * 1024;
/** Returned by SUBACK for a refused subscription. */
export const SUBACK_FAILURE = 0x80;

const PROTOCOL_LEVEL = 4;
const PUBLISH_QOS1 = 0x32;
const DUP_FLAG = 0x08;
const CONNECT_USERNAME = 0x80;
const CONNECT_PASSWORD = 0x40;
const CONNECT_CLEAN_SESSION = 0x02;
const MAX_STRING_BYTES = 0xffff;

export const PINGREQ: Buffer = Buffer.from([0xc0, 0x00]);
export const DISCONNECT: Buffer = Buffer.from([0xe0, 0x00]);

/** One packet as received: `body` is everything after the fixed header, a view of the pushed bytes. */
export interface MqttPacket {
  type: number;
  /** The low nibble of the first byte (DUP, QoS and RETAIN for PUBLISH; 0 for the others a lock reads). */
  flags: number;
  body: Buffer;
}

export interface ConnectOptions {
  clientId: string;
  username?: string;
  password?: string;
  keepAliveSeconds: number;
  cleanSession: boolean;
}

export interface ReceivedPublish {
  topic: string;
  qos: number;
  dup: boolean;
  retain: boolean;
  /** 0 for QoS 0. */
  packetId: number;
  payload: Buffer;
}

/** Bytes the remaining-length varint of `length` takes. */
export function remainingLengthBytes(length: number): number {
  if (!Number.isInteger(length) || length < 0 || length > MAX_REMAINING_LENGTH) {
    throw new RangeError(`an MQTT remaining length is 0..${MAX_REMAINING_LENGTH}, not ${length}`);
  }
  if (length < 128) return 1;
  if (length < 16_384) return 2;
  if (length < 2_097_152) return 3;
  return 4;
}

/** Writes the varint at `at`; returns the offset after it. */
function writeRemainingLength(target: Buffer, at: number, length: number): number {
  let rest = length;
  let offset = at;
  do {
    const low = rest % 128;
    rest = Math.floor(rest / 128);
    target[offset] = rest > 0 ? low | 0x80 : low;
    offset += 1;
  } while (rest > 0);
  return offset;
}

function checkPacketId(packetId: number): void {
  if (!Number.isInteger(packetId) || packetId < 1 || packetId > 0xffff) {
    throw new RangeError(`an MQTT packet id is 1..65535, not ${packetId}`);
  }
}

function utf8(value: string, field: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length > MAX_STRING_BYTES) throw new RangeError(`${field}: at most 65535 bytes in MQTT`);
  return bytes;
}

/** A fixed header for `remaining` body bytes; returns the packet and where its body starts. */
function startPacket(first: number, remaining: number): { packet: Buffer; at: number } {
  const packet = Buffer.allocUnsafe(1 + remainingLengthBytes(remaining) + remaining);
  packet[0] = first;
  return { packet, at: writeRemainingLength(packet, 1, remaining) };
}

/** Writes a length-prefixed string or binary field; returns the offset after it. */
function writeField(target: Buffer, at: number, bytes: Buffer): number {
  target.writeUInt16BE(bytes.length, at);
  bytes.copy(target, at + 2);
  return at + 2 + bytes.length;
}

export function encodeConnect(options: ConnectOptions): Buffer {
  const { keepAliveSeconds } = options;
  if (!Number.isInteger(keepAliveSeconds) || keepAliveSeconds < 0 || keepAliveSeconds > 0xffff) {
    throw new RangeError(`keepAliveSeconds: 0..65535, not ${keepAliveSeconds}`);
  }
  if (options.password !== undefined && options.username === undefined) {
    // MQTT 3.1.1 §3.1.2.9: no password without a user name.
    throw new RangeError('a password needs a user name in MQTT 3.1.1');
  }
  const fields = [utf8(options.clientId, 'clientId')];
  let flags = options.cleanSession ? CONNECT_CLEAN_SESSION : 0;
  if (options.username !== undefined) {
    flags |= CONNECT_USERNAME;
    fields.push(utf8(options.username, 'username'));
  }
  if (options.password !== undefined) {
    flags |= CONNECT_PASSWORD;
    fields.push(utf8(options.password, 'password'));
  }
  // "MQTT" as a length-prefixed string, the protocol level, the flags and the keep-alive.
  const variableHeader = 10;
  const remaining = fields.reduce((sum, field) => sum + 2 + field.length, variableHeader);
  const { packet, at } = startPacket(PacketType.CONNECT << 4, remaining);
  let offset = writeField(packet, at, Buffer.from('MQTT', 'latin1'));
  packet[offset] = PROTOCOL_LEVEL;
  packet[offset + 1] = flags;
  packet.writeUInt16BE(keepAliveSeconds, offset + 2);
  offset += 4;
  for (const field of fields) offset = writeField(packet, offset, field);
  return packet;
}

/** A topic name as PUBLISH carries it (length-prefixed UTF-8): computed once, copied into every publish. */
export function encodeTopicName(topic: string): Buffer {
  if (topic === '' || /[+#\0]/.test(topic)) {
    throw new RangeError(`not an MQTT topic name: ${JSON.stringify(topic)}`);
  }
  const bytes = utf8(topic, 'topic');
  const field = Buffer.allocUnsafe(2 + bytes.length);
  writeField(field, 0, bytes);
  return field;
}

/** A QoS 1 PUBLISH in one allocation; `topicName` comes from encodeTopicName. */
export function encodePublish(
  topicName: Buffer,
  packetId: number,
  payload: string | Uint8Array,
  dup = false,
): Buffer {
  checkPacketId(packetId);
  const payloadBytes = typeof payload === 'string' ? Buffer.byteLength(payload, 'utf8') : payload.byteLength;
  const remaining = topicName.length + 2 + payloadBytes;
  const { packet, at } = startPacket(dup ? PUBLISH_QOS1 | DUP_FLAG : PUBLISH_QOS1, remaining);
  const idAt = at + topicName.copy(packet, at);
  packet[idAt] = packetId >> 8;
  packet[idAt + 1] = packetId & 0xff;
  if (typeof payload === 'string') packet.write(payload, idAt + 2, 'utf8');
  else packet.set(payload, idAt + 2);
  return packet;
}

/** Sets the DUP flag of an encoded PUBLISH in place (it is about to be sent again). */
export function markDuplicate(publish: Buffer): void {
  publish[0] = (publish[0] as number) | DUP_FLAG;
}

export function encodeSubscribe(packetId: number, topicFilter: string, qos: 0 | 1 | 2): Buffer {
  checkPacketId(packetId);
  const filter = utf8(topicFilter, 'topicFilter');
  if (filter.length === 0) throw new RangeError('an empty MQTT topic filter');
  const remaining = 2 + 2 + filter.length + 1;
  // SUBSCRIBE's fixed-header flags are 0b0010 (MQTT 3.1.1 §3.8.1).
  const { packet, at } = startPacket((PacketType.SUBSCRIBE << 4) | 0x02, remaining);
  packet.writeUInt16BE(packetId, at);
  const offset = writeField(packet, at + 2, filter);
  packet[offset] = qos;
  return packet;
}

export function encodePuback(packetId: number): Buffer {
  checkPacketId(packetId);
  return Buffer.from([PacketType.PUBACK << 4, 2, packetId >> 8, packetId & 0xff]);
}

/** The CONNACK return code, or -1 for a malformed CONNACK. */
export function parseConnack(packet: MqttPacket): number {
  const { flags, body } = packet;
  if (flags !== 0 || body.length !== 2 || ((body[0] as number) & 0xfe) !== 0) return -1;
  return body[1] as number;
}

/** The packet id a PUBACK acknowledges, or -1 for a malformed PUBACK. */
export function parsePuback(packet: MqttPacket): number {
  const { flags, body } = packet;
  if (flags !== 0 || body.length !== 2) return -1;
  return ((body[0] as number) << 8) | (body[1] as number);
}

/** A SUBACK's packet id and granted QoS per filter (SUBACK_FAILURE for a refusal), or null if malformed. */
export function parseSuback(packet: MqttPacket): { packetId: number; granted: number[] } | null {
  const { flags, body } = packet;
  if (flags !== 0 || body.length < 3) return null;
  const granted = [...body.subarray(2)];
  if (granted.some((code) => code > 2 && code !== SUBACK_FAILURE)) return null;
  const packetId = body.readUInt16BE(0);
  return packetId === 0 ? null : { packetId, granted };
}

/** An incoming PUBLISH, or null if malformed (QoS 3, a truncated topic, a QoS 1/2 packet id of 0). */
export function parsePublish(packet: MqttPacket): ReceivedPublish | null {
  const { flags, body } = packet;
  const qos = (flags >> 1) & 0x03;
  const dup = (flags & DUP_FLAG) !== 0;
  if (qos === 3 || (qos === 0 && dup) || body.length < 2) return null;
  const topicEnd = 2 + body.readUInt16BE(0);
  const payloadStart = qos === 0 ? topicEnd : topicEnd + 2;
  if (topicEnd === 2 || body.length < payloadStart) return null;
  const packetId = qos === 0 ? 0 : body.readUInt16BE(topicEnd);
  if (qos > 0 && packetId === 0) return null;
  return {
    topic: body.toString('utf8', 2, topicEnd),
    qos,
    dup,
    retain: (flags & 0x01) !== 0,
    packetId,
    payload: body.subarray(payloadStart),
  };
}

/**
 * Splits the broker's byte stream into packets: a packet may arrive over many chunks and a chunk may hold
 * many packets. Bytes are copied only when a packet straddles chunks. A packet over the size limit (known
 * from its fixed header, before its body arrives) or a malformed fixed header fails the reader for good:
 * nothing after it can be trusted, the connection has to go.
 *
 *     reader.push(chunk);
 *     for (let packet = reader.next(); packet !== null; packet = reader.next()) handle(packet);
 *     if (reader.failure !== null) dropTheConnection(reader.failure);
 */
export class MqttPacketReader {
  private buffer: Buffer = Buffer.alloc(0);
  private at = 0;
  private failed: string | null = null;

  constructor(private readonly maxPacketBytes: number = MAX_INCOMING_PACKET_BYTES) {}

  /** Why the stream cannot be read any further, or null while it can. */
  get failure(): string | null {
    return this.failed;
  }

  /** Bytes received but not yet part of a returned packet. */
  get bufferedBytes(): number {
    return this.buffer.length - this.at;
  }

  /** Adds received bytes; the packets they complete come from next(). The chunk must not change later. */
  push(chunk: Buffer): void {
    if (this.failed !== null || chunk.length === 0) return;
    if (this.at >= this.buffer.length) {
      this.buffer = chunk;
    } else {
      this.buffer = Buffer.concat([this.buffer.subarray(this.at), chunk]);
    }
    this.at = 0;
  }

  /** The next whole packet, or null when more bytes are needed or the stream failed (see failure). */
  next(): MqttPacket | null {
    if (this.failed !== null) return null;
    const buffer = this.buffer;
    const start = this.at;
    if (buffer.length - start < 2) return null;
    const first = buffer[start] as number;
    const type = first >> 4;
    if (type === 0 || type === 15) return this.fail(`reserved packet type ${type}`);
    let remaining = 0;
    let multiplier = 1;
    let offset = start + 1;
    for (let index = 0; ; index += 1) {
      if (offset >= buffer.length) return null;
      const byte = buffer[offset] as number;
      offset += 1;
      remaining += (byte & 0x7f) * multiplier;
      if ((byte & 0x80) === 0) break;
      if (index === 3) return this.fail('remaining length longer than 4 bytes');
      multiplier *= 128;
    }
    const total = offset - start + remaining;
    if (total > this.maxPacketBytes) {
      return this.fail(`packet of ${total} bytes over the limit of ${this.maxPacketBytes}`);
    }
    if (buffer.length - offset < remaining) return null;
    const end = offset + remaining;
    this.at = end;
    return { type, flags: first & 0x0f, body: buffer.subarray(offset, end) };
  }

  private fail(reason: string): null {
    this.failed = reason;
    this.buffer = Buffer.alloc(0);
    this.at = 0;
    return null;
  }
}
