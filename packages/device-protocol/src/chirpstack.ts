/**
 * ChirpStack v4 MQTT integration, JSON marshaler (the protobuf messages of `api/proto/integration`, in
 * protobuf's JSON mapping: camelCase names, bytes as base64, timestamps as RFC 3339 text, default values
 * possibly left out — so a missing `acknowledged` means false).
 *
 * Events arrive on `application/{applicationId}/device/{devEui}/event/{event}`:
 *   up      {deduplicationId, time, deviceInfo{tenantId, applicationId, devEui, deviceName, …}, devAddr,
 *            adr, dr, fCnt, fPort, confirmed, data (base64, may be absent), object (set when the device
 *            profile has a codec), rxInfo[{gatewayId, uplinkId, rssi, snr, …}], txInfo{…}}
 *   status  {deduplicationId, time, deviceInfo, margin, externalPowerSource, batteryLevelUnavailable,
 *            batteryLevel}
 *   ack     {deduplicationId, time, deviceInfo, queueItemId, acknowledged, fCntDown}
 *   txack   {downlinkId, time, deviceInfo, queueItemId, fCntDown, gatewayId, txInfo}
 *   join, log, location, integration: not lock data, ignored.
 * Downlinks are published to `application/{applicationId}/device/{devEui}/command/down` as
 *   {"devEui", "confirmed", "fPort", "data" (base64)[, "id"]}.
 */

import {
  checkNumberRange,
  decodeBase64,
  isJsonObject,
  type JsonObject,
  parseJsonObject,
  toBase64,
} from './json-input.ts';
import { MAX_CHIRPSTACK_EVENT_BYTES, MAX_MESSAGE_ID_LENGTH, MAX_NATIVE_PAYLOAD_BYTES } from './limits.ts';
import { decodeLockPayload } from './lock-payload.ts';
import {
  type CommandResult,
  type Decoded,
  type DeviceMessage,
  type DeviceReport,
  decoded,
  refused,
} from './message.ts';
import { readReportFields } from './native.ts';
import { isDevEui } from './topics.ts';

export type ChirpstackDown = {
  devEui: string;
  confirmed: boolean;
  fPort: number;
  data: Uint8Array;
  id?: string;
};

const IGNORED_EVENTS = new Set(['join', 'log', 'location', 'integration']);

/** Ids ChirpStack generates are UUIDs; anything up to the message id limit that is printable is accepted. */
function checkId(field: string, value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_MESSAGE_ID_LENGTH) {
    return `${field}: must be a string of 1..${MAX_MESSAGE_ID_LENGTH} characters`;
  }
  return undefined;
}

function readDevEui(event: JsonObject): Decoded<string> {
  const info = event.deviceInfo;
  if (!isJsonObject(info)) return refused('invalid', 'deviceInfo: must be an object');
  const devEui = info.devEui;
  if (typeof devEui !== 'string' || !isDevEui(devEui))
    return refused('invalid', 'deviceInfo.devEui: must be 16 hex digits');
  return decoded(devEui.toUpperCase());
}

function readTime(event: JsonObject): number | undefined {
  if (typeof event.time !== 'string') return undefined;
  const ms = Date.parse(event.time);
  return Number.isFinite(ms) ? ms : undefined;
}

/** The strongest signal over the gateways that heard the uplink (what the lock's link quality really is). */
function bestRssi(rxInfo: unknown): number | undefined {
  if (!Array.isArray(rxInfo)) return undefined;
  let best: number | undefined;
  for (const rx of rxInfo) {
    if (!isJsonObject(rx)) continue;
    const rssi = rx.rssi;
    if (typeof rssi === 'number' && rssi >= -200 && rssi <= 0 && (best === undefined || rssi > best))
      best = rssi;
  }
  return best;
}

function decodeUp(
  event: JsonObject,
  devEui: string,
): Decoded<{ devEui: string; message: DeviceMessage } | null> {
  const idError = checkId('deduplicationId', event.deduplicationId);
  if (idError) return refused('invalid', idError);
  const messageId = event.deduplicationId as string;
  const time = readTime(event);
  // The network's measurement wins over an rssi the device put in a codec object.
  const rssi = bestRssi(event.rxInfo);

  // A codec configured in ChirpStack has already decoded the payload; its result wins over the raw bytes.
  if (event.object !== undefined && event.object !== null) {
    if (!isJsonObject(event.object)) return refused('invalid', 'object: must be an object');
    const report: DeviceReport = { kind: 'report', messageId };
    const error = readReportFields(event.object, report);
    if (error) return refused('invalid', `object.${error}`);
    if (rssi !== undefined) report.rssi = rssi;
    if (report.reportedAt === undefined && time !== undefined) report.reportedAt = time;
    return decoded({ devEui, message: report });
  }

  if (event.data === undefined || event.data === null || event.data === '') return decoded(null);
  if (typeof event.data !== 'string') return refused('invalid', 'data: must be base64 text');
  const bytes = decodeBase64(event.data);
  if (!bytes) return refused('invalid', 'data: not base64');
  const payload = decodeLockPayload(bytes);
  if (!payload.ok) return refused(payload.reason, `data: ${payload.detail}`);

  const lock = payload.value;
  if (lock.type === 'result') {
    const result: CommandResult = {
      kind: 'commandResult',
      messageId,
      commandId: `seq:${lock.seq}`,
      outcome: lock.outcome,
    };
    if (lock.errorCode !== undefined) result.detail = `error code ${lock.errorCode}`;
    if (time !== undefined) result.reportedAt = time;
    return decoded({ devEui, message: result });
  }
  const report: DeviceReport = { kind: 'report', messageId, ...lock.report };
  if (rssi !== undefined) report.rssi = rssi;
  if (time !== undefined) report.reportedAt = time;
  return decoded({ devEui, message: report });
}

function decodeStatus(
  event: JsonObject,
  devEui: string,
): Decoded<{ devEui: string; message: DeviceMessage }> {
  const idError = checkId('deduplicationId', event.deduplicationId);
  if (idError) return refused('invalid', idError);
  const report: DeviceReport = {
    kind: 'report',
    messageId: event.deduplicationId as string,
    event: 'status',
  };
  // A missing batteryLevel is protobuf's default left out, not a measured 0 %: only a present one is kept.
  if (
    event.batteryLevelUnavailable !== true &&
    event.batteryLevel !== undefined &&
    event.batteryLevel !== null
  ) {
    const error = checkNumberRange('batteryLevel', event.batteryLevel, 0, 100);
    if (error) return refused('invalid', error);
    report.battery = event.batteryLevel as number;
  }
  const time = readTime(event);
  if (time !== undefined) report.reportedAt = time;
  return decoded({ devEui, message: report });
}

function decodeDownlinkEvent(
  event: JsonObject,
  devEui: string,
  kind: 'ack' | 'txack',
): Decoded<{ devEui: string; message: DeviceMessage }> {
  const queueError = checkId('queueItemId', event.queueItemId);
  if (queueError) return refused('invalid', queueError);
  const queueItemId = event.queueItemId as string;
  let messageId = `${queueItemId}:${kind}`;
  if (event.deduplicationId !== undefined) {
    const idError = checkId('deduplicationId', event.deduplicationId);
    if (idError) return refused('invalid', idError);
    messageId = event.deduplicationId as string;
  }
  if (event.acknowledged !== undefined && typeof event.acknowledged !== 'boolean') {
    return refused('invalid', 'acknowledged: must be a boolean');
  }
  const result: CommandResult = {
    kind: 'commandResult',
    messageId,
    commandId: queueItemId,
    outcome: kind === 'txack' ? 'Sent' : event.acknowledged === true ? 'Delivered' : 'Failure',
  };
  const time = readTime(event);
  if (time !== undefined) result.reportedAt = time;
  return decoded({ devEui, message: result });
}

/**
 * One integration event → the internal message; join / log / location / integration events are not lock
 * data and come back as `ok` with a null value. An unknown event name is `unsupported`.
 */
export function decodeChirpstackEvent(
  event: string,
  payload: Uint8Array | string,
): Decoded<{ devEui: string; message: DeviceMessage } | null> {
  if (IGNORED_EVENTS.has(event)) return decoded(null);
  if (event !== 'up' && event !== 'status' && event !== 'ack' && event !== 'txack') {
    return refused('unsupported', `event ${JSON.stringify(String(event).slice(0, 32))}`);
  }
  const parsed = parseJsonObject(payload, MAX_CHIRPSTACK_EVENT_BYTES);
  if (!parsed.ok) return parsed;
  const devEui = readDevEui(parsed.value);
  if (!devEui.ok) return devEui;
  switch (event) {
    case 'up':
      return decodeUp(parsed.value, devEui.value);
    case 'status':
      return decodeStatus(parsed.value, devEui.value);
    default:
      return decodeDownlinkEvent(parsed.value, devEui.value, event);
  }
}

export function encodeChirpstackDown(down: ChirpstackDown): string {
  const out: JsonObject = {
    devEui: down.devEui.toLowerCase(),
    confirmed: down.confirmed,
    fPort: down.fPort,
    data: toBase64(down.data),
  };
  if (down.id !== undefined) out.id = down.id;
  return JSON.stringify(out);
}

/** A downlink command as ChirpStack (or the simulator playing it) reads it; devEui comes back upper-case. */
export function decodeChirpstackDown(payload: Uint8Array | string): Decoded<ChirpstackDown> {
  const parsed = parseJsonObject(payload, MAX_NATIVE_PAYLOAD_BYTES);
  if (!parsed.ok) return parsed;
  const { devEui, confirmed, fPort, data, id } = parsed.value;
  if (typeof devEui !== 'string' || !isDevEui(devEui))
    return refused('invalid', 'devEui: must be 16 hex digits');
  if (confirmed !== undefined && typeof confirmed !== 'boolean')
    return refused('invalid', 'confirmed: must be a boolean');
  // LoRaWAN application ports are 1..223 (0 is MAC commands, 224 the test protocol).
  if (typeof fPort !== 'number' || !Number.isInteger(fPort) || fPort < 1 || fPort > 223) {
    return refused('invalid', 'fPort: must be an integer 1..223');
  }
  if (typeof data !== 'string') return refused('invalid', 'data: must be base64 text');
  const bytes = decodeBase64(data);
  if (!bytes) return refused('invalid', 'data: not base64');
  const down: ChirpstackDown = {
    devEui: devEui.toUpperCase(),
    confirmed: confirmed === true,
    fPort,
    data: new Uint8Array(bytes),
  };
  if (id !== undefined) {
    const idError = checkId('id', id);
    if (idError) return refused('invalid', idError);
    down.id = id as string;
  }
  return decoded(down);
}

// ---- Events as ChirpStack publishes them (for the simulator and tests) --------------------------------

/** Fixed ids of the simulated ChirpStack tenant and profile: they appear in every event, as in a real one. */
const SIMULATED_TENANT_ID = '52f14cd4-c6f1-4fbd-8f87-4025e1d49242';
const SIMULATED_PROFILE_ID = 'a1b6e5c2-7f63-4d5e-9c1b-3f0d2e8a4c71';
const SIMULATED_GATEWAY_ID = '0016c001f153a14c';

function deviceInfo(applicationId: string, devEui: string, deviceName?: string): JsonObject {
  const eui = devEui.toLowerCase();
  return {
    tenantId: SIMULATED_TENANT_ID,
    tenantName: 'UIOT',
    applicationId,
    applicationName: 'uiot-locks',
    deviceProfileId: SIMULATED_PROFILE_ID,
    deviceProfileName: 'uiot-lock-class-a',
    deviceName: deviceName ?? `lock-${eui}`,
    devEui: eui,
    deviceClassEnabled: 'CLASS_A',
    tags: {},
  };
}

export function encodeChirpstackUp(up: {
  applicationId: string;
  devEui: string;
  deduplicationId: string;
  time: Date;
  fCnt: number;
  fPort: number;
  data: Uint8Array;
  rssi: number;
  deviceName?: string;
}): string {
  const time = up.time.toISOString();
  return JSON.stringify({
    deduplicationId: up.deduplicationId,
    time,
    deviceInfo: deviceInfo(up.applicationId, up.devEui, up.deviceName),
    devAddr: up.devEui.slice(-8).toLowerCase(),
    adr: true,
    dr: 5,
    fCnt: up.fCnt,
    fPort: up.fPort,
    confirmed: false,
    data: toBase64(up.data),
    rxInfo: [
      {
        gatewayId: SIMULATED_GATEWAY_ID,
        uplinkId: up.fCnt & 0xffff,
        gwTime: time,
        nsTime: time,
        rssi: up.rssi,
        snr: 7.5,
        channel: up.fCnt % 8,
        location: {},
        context: 'EFwMtA==',
        crcStatus: 'CRC_OK',
      },
    ],
    txInfo: {
      frequency: 868100000 + (up.fCnt % 8) * 200000,
      modulation: { lora: { bandwidth: 125000, spreadingFactor: 7, codeRate: 'CR_4_5' } },
    },
  });
}

export function encodeChirpstackStatus(s: {
  applicationId: string;
  devEui: string;
  deduplicationId: string;
  time: Date;
  batteryLevel: number | null;
}): string {
  const event: JsonObject = {
    deduplicationId: s.deduplicationId,
    time: s.time.toISOString(),
    deviceInfo: deviceInfo(s.applicationId, s.devEui),
    margin: 10,
    externalPowerSource: false,
  };
  if (s.batteryLevel === null) event.batteryLevelUnavailable = true;
  else event.batteryLevel = s.batteryLevel;
  return JSON.stringify(event);
}

export function encodeChirpstackAck(a: {
  applicationId: string;
  devEui: string;
  deduplicationId: string;
  time: Date;
  queueItemId: string;
  acknowledged: boolean;
  fCntDown: number;
}): string {
  return JSON.stringify({
    deduplicationId: a.deduplicationId,
    time: a.time.toISOString(),
    deviceInfo: deviceInfo(a.applicationId, a.devEui),
    queueItemId: a.queueItemId,
    acknowledged: a.acknowledged,
    fCntDown: a.fCntDown,
  });
}

export function encodeChirpstackTxack(t: {
  applicationId: string;
  devEui: string;
  time: Date;
  queueItemId: string;
  fCntDown: number;
  downlinkId: number;
}): string {
  return JSON.stringify({
    downlinkId: t.downlinkId,
    time: t.time.toISOString(),
    deviceInfo: deviceInfo(t.applicationId, t.devEui),
    queueItemId: t.queueItemId,
    fCntDown: t.fCntDown,
    gatewayId: SIMULATED_GATEWAY_ID,
    txInfo: {
      frequency: 869525000,
      power: 14,
      modulation: { lora: { bandwidth: 125000, spreadingFactor: 9, codeRate: 'CR_4_5' } },
      timing: { delay: { delay: '1s' } },
    },
  });
}
