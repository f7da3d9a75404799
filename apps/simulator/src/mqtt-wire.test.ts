/**
 * The lock's MQTT encoder and reader, cross-checked against mqtt-packet (the parser and generator behind
 * mqtt.js and aedes): what we write it reads, and what it writes we read.
 */
import { generate, type Packet, parser } from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import {
  DISCONNECT,
  encodeConnect,
  encodePuback,
  encodePublish,
  encodeSubscribe,
  encodeTopicName,
  MAX_INCOMING_PACKET_BYTES,
  type MqttPacket,
  MqttPacketReader,
  markDuplicate,
  PacketType,
  PINGREQ,
  parseConnack,
  parsePuback,
  parsePublish,
  parseSuback,
  remainingLengthBytes,
  SUBACK_FAILURE,
} from './mqtt-wire.ts';

/** Every packet mqtt-packet reads from `bytes`; fails the test on a parse error or leftover bytes. */
function parsedByMqttPacket(bytes: Buffer): Packet[] {
  const reading = parser({ protocolVersion: 4 });
  const packets: Packet[] = [];
  const errors: Error[] = [];
  reading.on('packet', (packet: Packet) => packets.push(packet));
  reading.on('error', (error: Error) => errors.push(error));
  const left = reading.parse(bytes);
  expect(errors).toEqual([]);
  expect(left).toBe(0);
  return packets;
}

function onlyPacket(bytes: Buffer): Record<string, unknown> {
  const packets = parsedByMqttPacket(bytes);
  expect(packets).toHaveLength(1);
  return packets[0] as unknown as Record<string, unknown>;
}

/** Everything a reader yields for these chunks, bodies copied; plus its failure. */
function readAll(
  chunks: Buffer[],
  max?: number,
): { packets: Array<{ type: number; flags: number; body: Buffer }>; failure: string | null } {
  const reader = new MqttPacketReader(max);
  const packets: Array<{ type: number; flags: number; body: Buffer }> = [];
  for (const chunk of chunks) {
    reader.push(chunk);
    for (let packet = reader.next(); packet !== null; packet = reader.next()) {
      packets.push({ type: packet.type, flags: packet.flags, body: Buffer.from(packet.body) });
    }
  }
  return { packets, failure: reader.failure };
}

function onlyRead(bytes: Buffer): MqttPacket {
  const { packets, failure } = readAll([bytes]);
  expect(failure).toBeNull();
  expect(packets).toHaveLength(1);
  return packets[0] as MqttPacket;
}

const TOPIC = 'dev/S1/L-0001/up';

describe('encoding', () => {
  it('writes a CONNECT with the client id, user name, password, keep-alive and clean session', () => {
    const connect = onlyPacket(
      encodeConnect({
        clientId: 'dev-L-0001',
        username: 'L-0001',
        password: 'sécret',
        keepAliveSeconds: 60,
        cleanSession: true,
      }),
    );
    expect(connect).toMatchObject({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 4,
      clientId: 'dev-L-0001',
      username: 'L-0001',
      keepalive: 60,
      clean: true,
    });
    expect((connect.password as Buffer).toString('utf8')).toBe('sécret');
  });

  it('leaves out what it was not given', () => {
    const connect = onlyPacket(
      encodeConnect({ clientId: 'c', username: 'u', keepAliveSeconds: 0, cleanSession: false }),
    );
    expect(connect).toMatchObject({
      cmd: 'connect',
      clientId: 'c',
      username: 'u',
      keepalive: 0,
      clean: false,
    });
    expect(connect.password).toBeUndefined();
    const anonymous = onlyPacket(encodeConnect({ clientId: 'c', keepAliveSeconds: 5, cleanSession: true }));
    expect(anonymous.username).toBeUndefined();
  });

  it('refuses a password without a user name and a keep-alive out of range', () => {
    expect(() =>
      encodeConnect({ clientId: 'c', password: 'p', keepAliveSeconds: 1, cleanSession: true }),
    ).toThrow(RangeError);
    expect(() => encodeConnect({ clientId: 'c', keepAliveSeconds: 65_536, cleanSession: true })).toThrow(
      RangeError,
    );
  });

  it('writes a QoS 1 PUBLISH, with DUP when asked or marked', () => {
    const payload = '{"id":"m-1","event":"heartbeat","note":"ünïcode"}';
    const publish = encodePublish(encodeTopicName(TOPIC), 4242, payload);
    expect(publish[0]).toBe(0x32);
    expect(onlyPacket(publish)).toMatchObject({
      cmd: 'publish',
      topic: TOPIC,
      qos: 1,
      dup: false,
      retain: false,
      messageId: 4242,
    });
    expect((onlyPacket(publish).payload as Buffer).toString('utf8')).toBe(payload);
    expect(onlyPacket(encodePublish(encodeTopicName(TOPIC), 1, payload, true))).toMatchObject({ dup: true });
    markDuplicate(publish);
    expect(publish[0]).toBe(0x3a);
    expect(onlyPacket(publish)).toMatchObject({ dup: true, messageId: 4242, topic: TOPIC });
  });

  it('takes a binary payload and an empty one', () => {
    const bytes = Uint8Array.from([0, 1, 2, 255]);
    const binary = onlyPacket(encodePublish(encodeTopicName('a/b'), 65_535, bytes));
    expect([...(binary.payload as Buffer)]).toEqual([0, 1, 2, 255]);
    expect(binary.messageId).toBe(65_535);
    expect((onlyPacket(encodePublish(encodeTopicName('a/b'), 7, '')).payload as Buffer).length).toBe(0);
  });

  it('refuses packet ids outside 1..65535 and topic names with wildcards', () => {
    const topic = encodeTopicName(TOPIC);
    expect(() => encodePublish(topic, 0, 'x')).toThrow(RangeError);
    expect(() => encodePublish(topic, 65_536, 'x')).toThrow(RangeError);
    expect(() => encodePuback(0)).toThrow(RangeError);
    expect(() => encodeSubscribe(70_000, 'a', 1)).toThrow(RangeError);
    expect(() => encodeTopicName('dev/+/x')).toThrow(RangeError);
    expect(() => encodeTopicName('')).toThrow(RangeError);
  });

  it('writes SUBSCRIBE, PUBACK, PINGREQ and DISCONNECT', () => {
    expect(onlyPacket(encodeSubscribe(9, 'dev/S1/L-0001/down', 1))).toMatchObject({
      cmd: 'subscribe',
      messageId: 9,
      subscriptions: [{ topic: 'dev/S1/L-0001/down', qos: 1 }],
    });
    expect(onlyPacket(encodePuback(0x1234))).toMatchObject({ cmd: 'puback', messageId: 0x1234 });
    expect([...encodePuback(0x1234)]).toEqual([0x40, 0x02, 0x12, 0x34]);
    expect(onlyPacket(PINGREQ)).toMatchObject({ cmd: 'pingreq' });
    expect(onlyPacket(DISCONNECT)).toMatchObject({ cmd: 'disconnect' });
  });

  it('sizes the remaining-length varint at its boundaries', () => {
    const cases: Array<[number, number]> = [
      [0, 1],
      [127, 1],
      [128, 2],
      [16_383, 2],
      [16_384, 3],
      [2_097_151, 3],
      [2_097_152, 4],
      [268_435_455, 4],
    ];
    for (const [length, bytes] of cases) expect(remainingLengthBytes(length)).toBe(bytes);
    expect(() => remainingLengthBytes(268_435_456)).toThrow(RangeError);
    expect(() => remainingLengthBytes(-1)).toThrow(RangeError);
  });

  it('encodes and reads publishes whose remaining length sits on every varint boundary', () => {
    const topic = encodeTopicName('t');
    // Remaining length = topic field (3) + packet id (2) + payload.
    for (const remaining of [127, 128, 16_383, 16_384, 2_097_151, 2_097_152]) {
      const payload = Buffer.alloc(remaining - 5, 0x61);
      const publish = encodePublish(topic, 3, payload);
      expect(publish.length).toBe(1 + remainingLengthBytes(remaining) + remaining);
      const theirs = onlyPacket(publish);
      expect(theirs).toMatchObject({ cmd: 'publish', topic: 't', messageId: 3 });
      expect((theirs.payload as Buffer).equals(payload)).toBe(true);

      const { packets, failure } = readAll([publish], 4 * 1024 * 1024);
      expect(failure).toBeNull();
      expect(packets).toHaveLength(1);
      const ours = parsePublish(packets[0] as MqttPacket);
      expect(ours?.topic).toBe('t');
      expect(ours?.payload.equals(payload)).toBe(true);
      // mqtt-packet writes the same varint.
      const generated = generate({
        cmd: 'publish',
        topic: 't',
        payload,
        qos: 1,
        messageId: 3,
        dup: false,
        retain: false,
      });
      expect(generated.equals(publish)).toBe(true);
    }
  });
});

describe('reading', () => {
  const fromBroker: Buffer[] = [
    generate({ cmd: 'connack', returnCode: 0, sessionPresent: false }),
    generate({ cmd: 'suback', messageId: 1, granted: [1] }),
    generate({ cmd: 'puback', messageId: 2 }),
    generate({
      cmd: 'publish',
      topic: 'dev/S1/L-0001/down',
      payload: Buffer.from('{"id":"c-1","cmd":"open"}'),
      qos: 1,
      messageId: 300,
      dup: false,
      retain: false,
    }),
    generate({ cmd: 'publish', topic: 'x/y', payload: Buffer.from('q0'), qos: 0, dup: false, retain: true }),
    generate({ cmd: 'pingresp' }),
    generate({ cmd: 'puback', messageId: 65_535 }),
  ];
  const stream = Buffer.concat(fromBroker);

  function checkBrokerPackets(packets: MqttPacket[]): void {
    expect(packets.map((p) => p.type)).toEqual([
      PacketType.CONNACK,
      PacketType.SUBACK,
      PacketType.PUBACK,
      PacketType.PUBLISH,
      PacketType.PUBLISH,
      PacketType.PINGRESP,
      PacketType.PUBACK,
    ]);
    const [connack, suback, puback, command, retained, pingresp, lastPuback] = packets as [
      MqttPacket,
      MqttPacket,
      MqttPacket,
      MqttPacket,
      MqttPacket,
      MqttPacket,
      MqttPacket,
    ];
    expect(parseConnack(connack)).toBe(0);
    expect(parseSuback(suback)).toEqual({ packetId: 1, granted: [1] });
    expect(parsePuback(puback)).toBe(2);
    const received = parsePublish(command);
    expect(received).toMatchObject({ topic: 'dev/S1/L-0001/down', qos: 1, dup: false, packetId: 300 });
    expect(received?.payload.toString()).toBe('{"id":"c-1","cmd":"open"}');
    expect(parsePublish(retained)).toMatchObject({ topic: 'x/y', qos: 0, retain: true, packetId: 0 });
    expect(parsePublish(retained)?.payload.toString()).toBe('q0');
    expect(pingresp).toMatchObject({ flags: 0, body: Buffer.alloc(0) });
    expect(parsePuback(lastPuback)).toBe(65_535);
  }

  it('reads several packets from one chunk', () => {
    const { packets, failure } = readAll([stream]);
    expect(failure).toBeNull();
    checkBrokerPackets(packets);
  });

  it('reads the same packets however the stream is split in two', () => {
    for (let at = 0; at <= stream.length; at += 1) {
      const { packets, failure } = readAll([stream.subarray(0, at), stream.subarray(at)]);
      expect(failure).toBeNull();
      checkBrokerPackets(packets);
    }
  });

  it('reads the same packets from one byte at a time', () => {
    const bytes = [...stream].map((byte) => Buffer.from([byte]));
    const { packets, failure } = readAll(bytes);
    expect(failure).toBeNull();
    checkBrokerPackets(packets);
  });

  it('reads a PUBACK in place, without copying', () => {
    const chunk = Buffer.concat([encodePuback(5), encodePuback(6)]);
    const reader = new MqttPacketReader();
    reader.push(chunk);
    const first = reader.next() as MqttPacket;
    expect(first.body.buffer).toBe(chunk.buffer);
    expect(parsePuback(first)).toBe(5);
    expect(parsePuback(reader.next() as MqttPacket)).toBe(6);
    expect(reader.next()).toBeNull();
    expect(reader.bufferedBytes).toBe(0);
  });

  it('keeps a partial packet until the rest arrives', () => {
    const reader = new MqttPacketReader();
    const puback = encodePuback(77);
    reader.push(puback.subarray(0, 3));
    expect(reader.next()).toBeNull();
    expect(reader.bufferedBytes).toBe(3);
    reader.push(puback.subarray(3));
    expect(parsePuback(reader.next() as MqttPacket)).toBe(77);
    expect(reader.failure).toBeNull();
  });

  it('refuses a packet over the limit from its fixed header, and accepts one at the limit', () => {
    const max = 1000;
    // Fixed header of 3 bytes (0x30, varint of 2 bytes) + remaining.
    const atLimit = Buffer.concat([Buffer.from([0x30, 0xe5, 0x07]), Buffer.alloc(997)]);
    expect(readAll([atLimit], max)).toMatchObject({ failure: null, packets: [{ type: PacketType.PUBLISH }] });
    const header = Buffer.from([0x30, 0xe6, 0x07]);
    const over = readAll([header], max);
    expect(over.packets).toEqual([]);
    expect(over.failure).toMatch(/1001 bytes over the limit of 1000/);
  });

  it('refuses a packet over 256 KiB by default, and stays failed', () => {
    const topic = encodeTopicName('t');
    const big = encodePublish(topic, 1, Buffer.alloc(MAX_INCOMING_PACKET_BYTES));
    const reader = new MqttPacketReader();
    reader.push(big.subarray(0, 10));
    expect(reader.next()).toBeNull();
    expect(reader.failure).toMatch(/over the limit of 262144/);
    reader.push(encodePuback(1));
    expect(reader.next()).toBeNull();
    expect(reader.failure).toMatch(/over the limit/);
  });

  it('refuses reserved packet types and a remaining length of more than four bytes', () => {
    expect(readAll([Buffer.from([0x00, 0x00])]).failure).toMatch(/reserved packet type 0/);
    expect(readAll([Buffer.from([0xf0, 0x00])]).failure).toMatch(/reserved packet type 15/);
    const fiveBytes = Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect(readAll([fiveBytes], Number.MAX_SAFE_INTEGER).failure).toMatch(/longer than 4 bytes/);
    // Packets before the bad one are still returned.
    const { packets, failure } = readAll([Buffer.concat([encodePuback(1), Buffer.from([0x00, 0x00])])]);
    expect(packets).toHaveLength(1);
    expect(failure).not.toBeNull();
  });

  it('refuses malformed packets of the known types', () => {
    const packet = (type: number, flags: number, body: number[]): MqttPacket => ({
      type,
      flags,
      body: Buffer.from(body),
    });
    expect(parseConnack(packet(PacketType.CONNACK, 0, [0, 5]))).toBe(5);
    expect(parseConnack(packet(PacketType.CONNACK, 0, [0]))).toBe(-1);
    expect(parseConnack(packet(PacketType.CONNACK, 1, [0, 0]))).toBe(-1);
    expect(parseConnack(packet(PacketType.CONNACK, 0, [2, 0]))).toBe(-1);
    expect(parsePuback(packet(PacketType.PUBACK, 0, [0, 1, 0]))).toBe(-1);
    expect(parsePuback(packet(PacketType.PUBACK, 2, [0, 1]))).toBe(-1);
    expect(parseSuback(packet(PacketType.SUBACK, 0, [0, 1]))).toBeNull();
    expect(parseSuback(packet(PacketType.SUBACK, 0, [0, 1, 3]))).toBeNull();
    expect(parseSuback(packet(PacketType.SUBACK, 0, [0, 1, SUBACK_FAILURE]))).toEqual({
      packetId: 1,
      granted: [SUBACK_FAILURE],
    });
    // QoS 3, an empty topic, a topic longer than the packet, a QoS 1 without its id or with id 0.
    expect(parsePublish(packet(PacketType.PUBLISH, 0b0110, [0, 1, 0x61, 0, 1]))).toBeNull();
    expect(parsePublish(packet(PacketType.PUBLISH, 0, [0, 0]))).toBeNull();
    expect(parsePublish(packet(PacketType.PUBLISH, 0, [0, 9, 0x61]))).toBeNull();
    expect(parsePublish(packet(PacketType.PUBLISH, 0b0010, [0, 1, 0x61, 0]))).toBeNull();
    expect(parsePublish(packet(PacketType.PUBLISH, 0b0010, [0, 1, 0x61, 0, 0]))).toBeNull();
    expect(parsePublish(packet(PacketType.PUBLISH, 0b1000, [0, 1, 0x61]))).toBeNull();
    expect(parsePublish(packet(PacketType.PUBLISH, 0b0010, [0, 1, 0x61, 0, 1]))).toMatchObject({
      topic: 'a',
      qos: 1,
      packetId: 1,
      payload: Buffer.alloc(0),
    });
  });

  it('reads what it writes', () => {
    const publish = onlyRead(encodePublish(encodeTopicName(TOPIC), 12, 'hello'));
    expect(publish).toMatchObject({ type: PacketType.PUBLISH, flags: 0b0010 });
    expect(parsePublish(publish)).toMatchObject({ topic: TOPIC, qos: 1, packetId: 12, dup: false });
    expect(parsePuback(onlyRead(encodePuback(12)))).toBe(12);
    expect(onlyRead(encodeSubscribe(3, 'a/b', 1))).toMatchObject({ type: PacketType.SUBSCRIBE, flags: 2 });
    expect(onlyRead(PINGREQ)).toMatchObject({ type: PacketType.PINGREQ, flags: 0 });
  });
});
