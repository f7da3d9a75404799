/**
 * TcpDirect: locks that hold a plain TCP connection to the server.
 *
 * A frame is a 4-byte unsigned big-endian length followed by that many bytes of UTF-8 JSON. A length of 0
 * or above the frame limit is a protocol error: the server closes the connection (a peer that sent one
 * is out of sync or hostile, and nothing after it can be trusted).
 *
 * device → server   {"type":"auth","station":"S1","code":"L-0001","secret":"…"}   (first frame)
 *                   {"type":"report", …native up fields}
 *                   {"type":"result", …native ack fields}
 * server → device   {"type":"authResult","ok":true}
 *                   {"type":"received","id":"m-000123"}   (the report or result with this id is stored:
 *                                                         the lock may forget it; unconfirmed ones it sends
 *                                                         again after reconnecting, ingest keeps one)
 *                   {"type":"command", …native down fields}
 */

import { type JsonObject, parseJsonObject } from './json-input.ts';
import { MAX_MESSAGE_ID_LENGTH, MAX_SECRET_LENGTH, MAX_TCP_FRAME_BYTES } from './limits.ts';
import {
  type CommandResult,
  type Decoded,
  type DeviceCommand,
  type DeviceReport,
  decoded,
  refused,
} from './message.ts';
import {
  encodeNativeCommand,
  encodeNativeReport,
  encodeNativeResult,
  readNativeCommand,
  readNativeReport,
  readNativeResult,
} from './native.ts';
import { isTopicSegment } from './topics.ts';

export const FRAME_HEADER_BYTES = 4;

export type TcpDeviceMessage =
  | { type: 'auth'; stationId: string; code: string; secret: string }
  | { type: 'report'; report: DeviceReport }
  | { type: 'result'; result: CommandResult };

export type TcpServerMessage =
  | { type: 'authResult'; ok: boolean }
  | { type: 'received'; id: string }
  | { type: 'command'; command: DeviceCommand };

/** Throws a RangeError for an empty payload or one over MAX_TCP_FRAME_BYTES (the peer would refuse it). */
export function encodeFrame(payload: string | Uint8Array): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  if (body.length === 0) throw new RangeError('a frame cannot be empty');
  if (body.length > MAX_TCP_FRAME_BYTES)
    throw new RangeError(`a frame carries at most ${MAX_TCP_FRAME_BYTES} bytes`);
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + body.length);
  frame.writeUInt32BE(body.length, 0);
  frame.set(body, FRAME_HEADER_BYTES);
  return frame;
}

/**
 * Splits a byte stream into frame bodies: a frame may arrive over many chunks and a chunk may hold many
 * frames. After an oversized or malformed length it stays failed and returns that failure on every later
 * push, so a caller that misses the first one still closes the connection.
 */
export class FrameDecoder {
  private readonly maxFrameBytes: number;
  private pending: Buffer = Buffer.alloc(0);
  private failure: Decoded<Buffer> | undefined;

  constructor(maxFrameBytes: number = MAX_TCP_FRAME_BYTES) {
    if (!Number.isInteger(maxFrameBytes) || maxFrameBytes < 1 || maxFrameBytes > 0xffffffff) {
      throw new RangeError('maxFrameBytes must be an integer 1..4294967295');
    }
    this.maxFrameBytes = maxFrameBytes;
  }

  /** Bytes received but not yet part of a whole frame. */
  get bufferedBytes(): number {
    return this.pending.length;
  }

  /** Frame bodies completed by this chunk, in order; each is a copy the caller owns. */
  push(chunk: Uint8Array): Decoded<Buffer>[] {
    if (this.failure) return [this.failure];
    const input =
      this.pending.length === 0
        ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        : Buffer.concat([this.pending, chunk]);
    const frames: Decoded<Buffer>[] = [];
    let at = 0;
    while (input.length - at >= FRAME_HEADER_BYTES) {
      const length = input.readUInt32BE(at);
      if (length === 0 || length > this.maxFrameBytes) {
        this.failure =
          length === 0
            ? refused('malformed', 'zero-length frame')
            : refused('oversized', `frame of ${length} bytes over ${this.maxFrameBytes}`);
        this.pending = Buffer.alloc(0);
        frames.push(this.failure);
        return frames;
      }
      if (input.length - at - FRAME_HEADER_BYTES < length) break;
      const start = at + FRAME_HEADER_BYTES;
      frames.push(decoded(Buffer.from(input.subarray(start, start + length))));
      at = start + length;
    }
    // Keep only the unfinished tail, copied: the caller may reuse the chunk's memory.
    this.pending = at === input.length ? Buffer.alloc(0) : Buffer.from(input.subarray(at));
    return frames;
  }
}

function checkSegment(field: string, value: unknown): string | undefined {
  if (typeof value !== 'string' || !isTopicSegment(value)) {
    return `${field}: must be 1..64 characters without / + #`;
  }
  return undefined;
}

function readAuth(src: JsonObject): Decoded<TcpDeviceMessage> {
  const { station, code, secret } = src;
  const error = checkSegment('station', station) ?? checkSegment('code', code);
  if (error) return refused('invalid', error);
  // A device without a secret sends an empty one; the server decides whether that is enough.
  if (typeof secret !== 'string' || secret.length > MAX_SECRET_LENGTH) {
    return refused('invalid', `secret: must be a string of at most ${MAX_SECRET_LENGTH} characters`);
  }
  return decoded({ type: 'auth', stationId: station as string, code: code as string, secret });
}

/** The body of one frame a device sent (a frame from FrameDecoder, header removed). */
export function decodeTcpDeviceMessage(frame: Uint8Array): Decoded<TcpDeviceMessage> {
  const parsed = parseJsonObject(frame, MAX_TCP_FRAME_BYTES);
  if (!parsed.ok) return parsed;
  const src = parsed.value;
  switch (src.type) {
    case 'auth':
      return readAuth(src);
    case 'report': {
      const report = readNativeReport(src);
      return report.ok ? decoded({ type: 'report', report: report.value }) : report;
    }
    case 'result': {
      const result = readNativeResult(src);
      return result.ok ? decoded({ type: 'result', result: result.value }) : result;
    }
    case undefined:
      return refused('invalid', 'type: missing');
    default:
      return refused('unsupported', `type ${JSON.stringify(String(src.type).slice(0, 32))}`);
  }
}

/** The body of one frame the server sent. */
export function decodeTcpServerMessage(frame: Uint8Array): Decoded<TcpServerMessage> {
  const parsed = parseJsonObject(frame, MAX_TCP_FRAME_BYTES);
  if (!parsed.ok) return parsed;
  const src = parsed.value;
  switch (src.type) {
    case 'authResult':
      if (typeof src.ok !== 'boolean') return refused('invalid', 'ok: must be a boolean');
      return decoded({ type: 'authResult', ok: src.ok });
    case 'received':
      if (typeof src.id !== 'string' || src.id.length === 0 || src.id.length > MAX_MESSAGE_ID_LENGTH) {
        return refused('invalid', 'id: must be a message id');
      }
      return decoded({ type: 'received', id: src.id });
    case 'command': {
      const command = readNativeCommand(src);
      return command.ok ? decoded({ type: 'command', command: command.value }) : command;
    }
    case undefined:
      return refused('invalid', 'type: missing');
    default:
      return refused('unsupported', `type ${JSON.stringify(String(src.type).slice(0, 32))}`);
  }
}

/** `{"type":…,` followed by the native JSON object's members, without building a second object. */
function typed(type: string, nativeJson: string): Buffer {
  if (nativeJson === '{}') return encodeFrame(`{"type":"${type}"}`);
  return encodeFrame(`{"type":"${type}",${nativeJson.slice(1)}`);
}

export function encodeTcpAuth(stationId: string, code: string, secret: string): Buffer {
  return encodeFrame(JSON.stringify({ type: 'auth', station: stationId, code, secret }));
}

export function encodeTcpReport(report: Omit<DeviceReport, 'kind'>): Buffer {
  return typed('report', encodeNativeReport(report));
}

/** Throws a RangeError for an outcome other than Success / Failure. */
export function encodeTcpResult(result: Omit<CommandResult, 'kind'>): Buffer {
  return typed('result', encodeNativeResult(result));
}

export function encodeTcpAuthResult(ok: boolean): Buffer {
  return encodeFrame(ok ? '{"type":"authResult","ok":true}' : '{"type":"authResult","ok":false}');
}

/** Confirms that the device's message with this id is stored. */
export function encodeTcpReceived(messageId: string): Buffer {
  return encodeFrame(JSON.stringify({ type: 'received', id: messageId }));
}

export function encodeTcpCommand(command: DeviceCommand): Buffer {
  return typed('command', encodeNativeCommand(command));
}
