/**
 * Seeded garbage for the "decoders never throw" tests. Not exported from the package: tests only.
 */

/** mulberry32: a tiny seeded PRNG, so a failing garbage case is reproducible. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Field names the decoders look at, so random objects reach the deeper checks, not just the first one. */
const KEYS = [
  'id',
  'ts',
  'event',
  'lock',
  'door',
  'battery',
  'rssi',
  'run',
  'props',
  'cmd',
  'result',
  'detail',
  'params',
  'expire',
  'type',
  'station',
  'code',
  'secret',
  'ok',
  'deduplicationId',
  'time',
  'deviceInfo',
  'devEui',
  'fCnt',
  'fPort',
  'data',
  'object',
  'rxInfo',
  'batteryLevel',
  'batteryLevelUnavailable',
  'queueItemId',
  'acknowledged',
  'confirmed',
  'messageType',
  'IMEI',
  'timestamp',
  'payload',
  'APPdata',
  'taskId',
  'notifyType',
  'nodeId',
  'requestId',
  'service',
  'services',
  'eventTime',
  'rawData',
  'hexData',
  'resultCode',
  'msg',
  'imei',
  'at',
  'value',
  'ds_id',
  'cmd_id',
  'send_status',
  'confirm_status',
  '__proto__',
  'constructor',
];

const STRINGS = [
  '',
  'heartbeat',
  'open',
  'closed',
  'normal',
  'success',
  'report',
  'auth',
  'result',
  'command',
  'authResult',
  'dataReport',
  'commandResponse',
  'deviceDataChanged',
  'deviceDatasChanged',
  'deviceCommandStatus',
  '0102030405060708',
  '864012345678901',
  'AQEAAAAA/w==',
  '0101000000ff',
  '20251121T183320Z',
  '2025-11-21T18:33:20Z',
  'DELIVERED',
  'x'.repeat(300),
  '\u0000',
  '\ud800',
];

export function randomJson(random: () => number, depth = 0): unknown {
  const pick = Math.floor(random() * (depth > 3 ? 6 : 9));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return [0, -1, 1, 100, 101, -201, 1.5, 1763750000000, 2 ** 53, Number.MAX_VALUE][
        Math.floor(random() * 10)
      ];
    case 3:
      return Math.floor(random() * 70000) - 35000;
    case 4:
    case 5:
      return STRINGS[Math.floor(random() * STRINGS.length)];
    case 6:
    case 7: {
      const out: Record<string, unknown> = {};
      const n = Math.floor(random() * 8);
      for (let i = 0; i < n; i++)
        out[KEYS[Math.floor(random() * KEYS.length)] as string] = randomJson(random, depth + 1);
      return out;
    }
    default: {
      const n = Math.floor(random() * 5);
      return Array.from({ length: n }, () => randomJson(random, depth + 1));
    }
  }
}

export function randomBytes(random: () => number, maxLength: number): Uint8Array {
  const bytes = new Uint8Array(Math.floor(random() * (maxLength + 1)));
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
  return bytes;
}

/** A valid payload with a few bytes changed, cut short or extended. */
export function mutate(random: () => number, valid: Uint8Array): Uint8Array {
  const bytes = Uint8Array.from(valid);
  const kind = Math.floor(random() * 3);
  if (kind === 0) return bytes.subarray(0, Math.floor(random() * bytes.length));
  if (kind === 1) {
    const flips = 1 + Math.floor(random() * 3);
    for (let i = 0; i < flips && bytes.length > 0; i++) {
      bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
    }
    return bytes;
  }
  const longer = new Uint8Array(bytes.length + 1 + Math.floor(random() * 8));
  longer.set(bytes);
  for (let i = bytes.length; i < longer.length; i++) longer[i] = Math.floor(random() * 256);
  return longer;
}

const encoder = new TextEncoder();

/** Inputs of every kind a JSON decoder may meet: random bytes, random JSON text, mutated valid payloads. */
export function garbageInputs(
  seed: number,
  valid: readonly string[],
  count = 400,
): Array<Uint8Array | string> {
  const random = mulberry32(seed);
  const inputs: Array<Uint8Array | string> = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 4;
    if (kind === 0) inputs.push(randomBytes(random, 64));
    else if (kind === 1) inputs.push(JSON.stringify(randomJson(random)) ?? '');
    else {
      const base = valid[Math.floor(random() * valid.length)] ?? '{}';
      const bytes = mutate(random, encoder.encode(base));
      inputs.push(kind === 2 ? bytes : new TextDecoder().decode(bytes));
    }
  }
  return inputs;
}
