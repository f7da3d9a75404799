/**
 * NB-IoT: the carriers' platforms POST a JSON body to our callback URL for every uplink and every command
 * status change. The lock's data inside is the binary lock payload (lock-payload.ts). The bodies modelled
 * here (the fields we read; the platforms send more, which is ignored):
 *
 * ChinaTelecom (CTWing AEP subscription push)
 *   {"messageType":"dataReport","tenantId","productId","deviceId","IMEI":"864…","protocol":"lwm2m",
 *    "upPacketSN","upDataSN","timestamp":1763750000000,"payload":{"APPdata":"<base64>"}}
 *   {"messageType":"commandResponse","tenantId","productId","deviceId","IMEI","taskId":12,"timestamp",
 *    "result":{"resultCode":"SENT|DELIVERED|SUCCESSFUL|FAILED|TIMEOUT|EXPIRED|CANCELED…","resultDetail"}}
 *   CTWing carries no message id: reports are identified by IMEI, timestamp and position.
 * ChinaUnicom (Huawei OceanConnect style)
 *   {"notifyType":"deviceDataChanged","requestId":"<message id>","deviceId","gatewayId","nodeId":"<IMEI>",
 *    "service":{"serviceId":"LockData","serviceType":"LockData","data":{"rawData":"<base64>"},
 *    "eventTime":"20251121T183320Z"}}
 *   "deviceDatasChanged" carries "services":[…] instead (a batch); data may be {"hexData":"<hex>"}.
 *   {"notifyType":"deviceCommandStatus","deviceId","nodeId","commandId","result":{"resultCode":"DELIVERED",
 *    "resultDetail":null},"eventTime":"20251121T183320Z"}
 * ChinaMobile (OneNET HTTP push; msg may be an array when batching is on; msg_signature / nonce are
 * checked by the HTTP layer, not here)
 *   {"msg":{"type":1,"imei":"864…","dev_id":…,"ds_id":"19_0_0","at":1763750000000,"value":"<hex>"},
 *    "msg_signature":"…","nonce":"…"}
 *   {"msg":{"type":7,"imei","dev_id","cmd_id":"<command id>","cmd_type":1,"send_status":1..8,
 *    "confirm_status":0..,"at":…}}
 *   send_status 1 waiting, 2 canceled, 3 sent, 4 expired, 5 sent successfully (delivered), 6 send failed,
 *   8 other; confirm_status (the device's answer) 0 success, 5 timeout, others failed.
 *
 * Notifications that are not lock data (online/offline, device added, other resources) are ignored. One
 * bad item refuses the whole body: a partial decode would let the platform's retry duplicate the rest.
 */

import { checkTimestamp, decodeBase64, decodeHex, isJsonObject, toBase64, toHex } from './json-input.ts';
import { MAX_DETAIL_LENGTH, MAX_MESSAGE_ID_LENGTH } from './limits.ts';
import { decodeLockPayload } from './lock-payload.ts';
import {
  type CommandOutcome,
  type CommandResult,
  type Decoded,
  type DeviceMessage,
  type DeviceReport,
  decoded,
  nulFieldOf,
  refused,
} from './message.ts';

export type NbPlatform = 'ChinaTelecom' | 'ChinaUnicom' | 'ChinaMobile';
export const NB_PLATFORMS: readonly NbPlatform[] = ['ChinaTelecom', 'ChinaUnicom', 'ChinaMobile'];

export type NbMessage = { imei: string; message: DeviceMessage };

const IMEI = /^\d{15}$/;

/** Platform command status words → outcome; spellings differ between platforms and API versions. */
const STATUS_OUTCOMES: Readonly<Record<string, CommandOutcome>> = {
  PENDING: 'NB_Pending',
  WAITING: 'NB_Pending',
  SENT: 'NB_Send',
  SEND: 'NB_Send',
  DELIVERED: 'NB_Delivered',
  SUCCESSFUL: 'NB_Successful',
  SUCCESS: 'NB_Successful',
  FAILED: 'NB_Failed',
  FAILURE: 'NB_Failed',
  FAIL: 'NB_Failed',
  EXPIRED: 'NB_Expired',
  TIMEOUT: 'NB_Timeout',
  CANCELED: 'NB_Canceled',
  CANCELLED: 'NB_Canceled',
};

/** A platform's command status (any case, `_` / `-` / spaces ignored) → NB_* outcome; NB_UnKnow otherwise. */
export function nbCommandOutcome(status: string): CommandOutcome {
  const word = status.toUpperCase().replace(/[^A-Z]/g, '');
  return Object.hasOwn(STATUS_OUTCOMES, word) ? (STATUS_OUTCOMES[word] as CommandOutcome) : 'NB_UnKnow';
}

// OneNET's numeric command states (send_status; confirm_status is the device's own answer).
const ONENET_SEND_STATUS: Readonly<Record<number, CommandOutcome>> = {
  1: 'NB_Pending',
  2: 'NB_Canceled',
  3: 'NB_Send',
  4: 'NB_Expired',
  5: 'NB_Delivered',
  6: 'NB_Failed',
};
const ONENET_CONFIRM_SUCCESS = 0;
const ONENET_CONFIRM_TIMEOUT = 5;
const ONENET_SEND_OTHER = 8;

class ItemError {
  constructor(
    readonly reason: 'invalid' | 'malformed' | 'oversized' | 'unsupported',
    readonly detail: string,
  ) {}
}

/** Collects the messages of one body; `index` counts every notification seen, kept or ignored. */
class Batch {
  readonly items: NbMessage[] = [];
  index = 0;
}

function clip(text: string): string {
  return text.length > MAX_DETAIL_LENGTH ? text.slice(0, MAX_DETAIL_LENGTH) : text;
}

function readImei(value: unknown, field: string): string {
  if (typeof value !== 'string' || !IMEI.test(value))
    throw new ItemError('invalid', `${field}: must be 15 digits`);
  return value;
}

function readMs(value: unknown, field: string): number {
  const error = checkTimestamp(field, value);
  if (error) throw new ItemError('invalid', error);
  return value as number;
}

/** Huawei's compact UTC time `yyyyMMddTHHmmssZ`; RFC 3339 is accepted as well. */
function readCompactTime(value: unknown, field: string): number {
  if (typeof value !== 'string') throw new ItemError('invalid', `${field}: must be a time text`);
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  const ms = m
    ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]))
    : Date.parse(value);
  if (!Number.isFinite(ms)) throw new ItemError('invalid', `${field}: not a time`);
  return readMs(ms, field);
}

function formatCompactTime(time: Date): string {
  return `${time.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
}

function readPlatformId(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  if (typeof value !== 'string' || value.length > MAX_MESSAGE_ID_LENGTH) {
    throw new ItemError('invalid', `${field}: must be text of at most ${MAX_MESSAGE_ID_LENGTH} characters`);
  }
  return value;
}

function fallbackId(imei: string, ms: number, index: number): string {
  return `${imei}:${ms}:${index}`;
}

/**
 * A command status has no message id of its own. Its time may be whole seconds (OceanConnect's eventTime),
 * so two states of one command in the same second would look like one repeated: the command and the state
 * belong to the id. The same state of the same command sent again (a platform's retry) stays a repeat.
 */
function statusMessageId(
  imei: string,
  ms: number,
  index: number,
  commandId: string,
  outcome: CommandOutcome,
): string {
  // Escaped: a control character in the command id is reported on the command id, not on this one.
  return `${fallbackId(imei, ms, index)}:cmd:${encodeURIComponent(commandId)}:${outcome}`;
}

/** The lock payload of one uplink → a report or (a `result` payload) a command result. */
function addLockData(
  batch: Batch,
  imei: string,
  messageId: string,
  ms: number,
  bytes: Uint8Array | undefined,
): void {
  if (!bytes) throw new ItemError('invalid', 'data: not valid base64 / hex');
  const payload = decodeLockPayload(bytes);
  if (!payload.ok) throw new ItemError(payload.reason, `data: ${payload.detail}`);
  const lock = payload.value;
  if (lock.type === 'result') {
    const result: CommandResult = {
      kind: 'commandResult',
      messageId,
      commandId: `seq:${lock.seq}`,
      outcome: lock.outcome,
      reportedAt: ms,
    };
    if (lock.errorCode !== undefined) result.detail = `error code ${lock.errorCode}`;
    batch.items.push({ imei, message: result });
    return;
  }
  const report: DeviceReport = { kind: 'report', messageId, reportedAt: ms, ...lock.report };
  batch.items.push({ imei, message: report });
}

/** A command status; `index` is its position in the body. */
function addStatus(
  batch: Batch,
  imei: string,
  commandId: string,
  outcome: CommandOutcome,
  ms: number,
  index: number,
  detail: unknown,
): void {
  const messageId = statusMessageId(imei, ms, index, commandId, outcome);
  const result: CommandResult = { kind: 'commandResult', messageId, commandId, outcome, reportedAt: ms };
  if (typeof detail === 'string' && detail.length > 0) result.detail = clip(detail);
  batch.items.push({ imei, message: result });
}

/** A command status given as a platform word in `result.resultCode` (China Telecom, China Unicom). */
function addStatusWord(
  batch: Batch,
  imei: string,
  commandId: string,
  ms: number,
  index: number,
  result: unknown,
): void {
  const { status, detail } = readStatusWord(result, 'result.resultCode');
  const outcome = nbCommandOutcome(status);
  addStatus(batch, imei, commandId, outcome, ms, index, statusDetail(status, outcome, detail));
}

function readCommandId(value: unknown, field: string): string {
  const id = readPlatformId(value, field);
  if (id === undefined) throw new ItemError('invalid', `${field}: missing`);
  return id;
}

function readStatusWord(result: unknown, field: string): { status: string; detail: unknown } {
  const status = isJsonObject(result) ? result.resultCode : undefined;
  if (typeof status !== 'string' || status.length === 0) throw new ItemError('invalid', `${field}: missing`);
  return { status, detail: isJsonObject(result) ? result.resultDetail : undefined };
}

function statusDetail(status: string, outcome: CommandOutcome, platformDetail: unknown): unknown {
  // Keep an unrecognised status visible in the command history instead of a bare NB_UnKnow.
  return outcome === 'NB_UnKnow' && typeof platformDetail !== 'string'
    ? `platform status ${status}`
    : platformDetail;
}

// ---- ChinaTelecom (CTWing) -------------------------------------------------------------------------

function telecomItem(batch: Batch, item: unknown): void {
  const index = batch.index++;
  if (!isJsonObject(item)) throw new ItemError('malformed', 'not an object');
  const type = item.messageType;
  if (type === 'dataReport') {
    const imei = readImei(item.IMEI ?? item.imei, 'IMEI');
    const ms = readMs(item.timestamp, 'timestamp');
    const payload = item.payload;
    const appData = isJsonObject(payload) ? payload.APPdata : undefined;
    if (typeof appData !== 'string') throw new ItemError('invalid', 'payload.APPdata: must be base64 text');
    addLockData(batch, imei, fallbackId(imei, ms, index), ms, decodeBase64(appData));
  } else if (type === 'commandResponse' || type === 'deviceCommandStatus') {
    const imei = readImei(item.IMEI ?? item.imei, 'IMEI');
    const ms = readMs(item.timestamp, 'timestamp');
    addStatusWord(batch, imei, readCommandId(item.taskId, 'taskId'), ms, index, item.result);
  }
}

// ---- ChinaUnicom (OceanConnect) ----------------------------------------------------------------------

function unicomService(
  batch: Batch,
  imei: string,
  requestId: string | undefined,
  service: unknown,
  position: number,
): void {
  const index = batch.index++;
  if (!isJsonObject(service)) throw new ItemError('invalid', 'service: must be an object');
  const ms = readCompactTime(service.eventTime, 'service.eventTime');
  const data = service.data;
  if (!isJsonObject(data)) throw new ItemError('invalid', 'service.data: must be an object');
  let bytes: Uint8Array | undefined;
  if (typeof data.rawData === 'string') bytes = decodeBase64(data.rawData);
  else if (typeof data.hexData === 'string') bytes = decodeHex(data.hexData);
  else throw new ItemError('invalid', 'service.data: rawData (base64) or hexData (hex) expected');
  // The services of one deviceDatasChanged share its requestId: their position keeps the ids apart.
  let messageId = fallbackId(imei, ms, index);
  if (requestId !== undefined) messageId = position === 0 ? requestId : `${requestId}:${position}`;
  addLockData(batch, imei, messageId, ms, bytes);
}

function unicomItem(batch: Batch, item: unknown): void {
  if (!isJsonObject(item)) {
    batch.index++;
    throw new ItemError('malformed', 'not an object');
  }
  const type = item.notifyType;
  if (type === 'deviceDataChanged' || type === 'deviceDatasChanged') {
    const imei = readImei(item.nodeId ?? item.imei, 'nodeId');
    const requestId = readPlatformId(item.requestId, 'requestId');
    if (type === 'deviceDataChanged') {
      unicomService(batch, imei, requestId, item.service, 0);
      return;
    }
    if (!Array.isArray(item.services)) throw new ItemError('invalid', 'services: must be an array');
    for (const [position, service] of item.services.entries())
      unicomService(batch, imei, requestId, service, position);
    return;
  }
  const index = batch.index++;
  if (type === 'deviceCommandStatus' || type === 'commandStatusChanged') {
    const imei = readImei(item.nodeId ?? item.imei, 'nodeId');
    const ms = readCompactTime(item.eventTime, 'eventTime');
    addStatusWord(batch, imei, readCommandId(item.commandId, 'commandId'), ms, index, item.result);
  }
}

// ---- ChinaMobile (OneNET) ----------------------------------------------------------------------------

/** Resources that carry the lock's binary payload (LwM2M binary app data container, or the IPSO string). */
const ONENET_LOCK_RESOURCES = new Set(['19_0_0', '3200_0_5750']);

function oneNetItem(batch: Batch, msg: unknown): void {
  const index = batch.index++;
  if (!isJsonObject(msg)) throw new ItemError('malformed', 'msg: not an object');
  if (msg.type === 1) {
    if (msg.ds_id !== undefined && !(typeof msg.ds_id === 'string' && ONENET_LOCK_RESOURCES.has(msg.ds_id)))
      return;
    const imei = readImei(msg.imei, 'msg.imei');
    const ms = readMs(msg.at, 'msg.at');
    if (typeof msg.value !== 'string') throw new ItemError('invalid', 'msg.value: must be hex text');
    addLockData(batch, imei, fallbackId(imei, ms, index), ms, decodeHex(msg.value));
  } else if (msg.type === 7) {
    const imei = readImei(msg.imei, 'msg.imei');
    const ms = readMs(msg.at, 'msg.at');
    const commandId = readCommandId(msg.cmd_id, 'msg.cmd_id');
    const { send_status: send, confirm_status: confirm } = msg;
    let outcome: CommandOutcome;
    let detail: string | undefined;
    if (typeof confirm === 'number') {
      outcome =
        confirm === ONENET_CONFIRM_SUCCESS
          ? 'NB_Successful'
          : confirm === ONENET_CONFIRM_TIMEOUT
            ? 'NB_Timeout'
            : 'NB_Failed';
      if (outcome === 'NB_Failed') detail = `confirm_status ${confirm}`;
    } else if (typeof send === 'number') {
      outcome = Object.hasOwn(ONENET_SEND_STATUS, send)
        ? (ONENET_SEND_STATUS[send] as CommandOutcome)
        : 'NB_UnKnow';
      if (outcome === 'NB_UnKnow') detail = `platform status ${send}`;
    } else throw new ItemError('invalid', 'msg.send_status: must be a number');
    addStatus(batch, imei, commandId, outcome, ms, index, detail);
  }
}

/**
 * One callback body (already JSON-parsed) → the messages in it, each with the IMEI it came from. An empty
 * array is a body with nothing for us (a status we do not track, another resource, an online event).
 */
export function decodeNbCallback(platform: NbPlatform, body: unknown): Decoded<NbMessage[]> {
  if (!NB_PLATFORMS.includes(platform))
    return refused('unsupported', `platform ${String(platform).slice(0, 32)}`);
  if (!isJsonObject(body) && !Array.isArray(body)) return refused('malformed', 'body is not a JSON object');
  const batch = new Batch();
  const items: unknown[] = Array.isArray(body) ? body : [body];
  try {
    for (const item of items) {
      if (platform === 'ChinaTelecom') telecomItem(batch, item);
      else if (platform === 'ChinaUnicom') unicomItem(batch, item);
      else {
        if (!isJsonObject(item)) {
          batch.index++;
          throw new ItemError('malformed', 'not an object');
        }
        const msgs: unknown[] = Array.isArray(item.msg) ? item.msg : [item.msg];
        for (const msg of msgs) oneNetItem(batch, msg);
      }
    }
  } catch (error) {
    if (!(error instanceof ItemError)) return refused('invalid', 'body could not be read');
    const where = items.length > 1 || batch.index > 1 ? `[${batch.index - 1}] ` : '';
    return refused(error.reason, `${where}${error.detail}`);
  }
  for (const [position, item] of batch.items.entries()) {
    const field = nulFieldOf(item.message);
    if (field !== undefined) return refused('invalid', `[${position}] ${field}: NUL character`);
  }
  return decoded(batch.items);
}

/**
 * The platform's own id of the device with this IMEI, as a callback body names it (CTWing `deviceId`,
 * OceanConnect `deviceId`, OneNET `dev_id`): commands to it are addressed by that id. Undefined when the body
 * has no item of that IMEI with one.
 */
export function nbPlatformDeviceIdOf(platform: NbPlatform, body: unknown, imei: string): string | undefined {
  const items: unknown[] = Array.isArray(body) ? body : [body];
  for (const item of items) {
    if (!isJsonObject(item)) continue;
    const candidates: unknown[] =
      platform === 'ChinaMobile' ? (Array.isArray(item.msg) ? item.msg : [item.msg]) : [item];
    for (const candidate of candidates) {
      if (!isJsonObject(candidate)) continue;
      const named =
        platform === 'ChinaTelecom'
          ? (candidate.IMEI ?? candidate.imei)
          : platform === 'ChinaUnicom'
            ? (candidate.nodeId ?? candidate.imei)
            : candidate.imei;
      if (named !== imei) continue;
      try {
        const id = readPlatformId(
          platform === 'ChinaMobile' ? candidate.dev_id : candidate.deviceId,
          'deviceId',
        );
        if (id !== undefined) return id;
      } catch {
        // not an id we could use: look further
      }
    }
  }
  return undefined;
}

// ---- Bodies as the platforms send them (for tests and the simulator) -----------------------------------

/** Fixed ids of the simulated platform accounts. */
const SIMULATED_TENANT_ID = '2000101234';
const SIMULATED_PRODUCT_ID = '15012345';

function platformDeviceId(imei: string): string {
  return `${SIMULATED_PRODUCT_ID}${imei}`;
}

/** The body a platform POSTs for one uplink. ChinaTelecom bodies carry no message id (CTWing has none). */
export function encodeNbReport(
  platform: NbPlatform,
  r: { imei: string; messageId: string; time: Date; data: Uint8Array },
): unknown {
  const ms = r.time.getTime();
  switch (platform) {
    case 'ChinaTelecom':
      return {
        messageType: 'dataReport',
        tenantId: SIMULATED_TENANT_ID,
        productId: SIMULATED_PRODUCT_ID,
        deviceId: platformDeviceId(r.imei),
        IMEI: r.imei,
        protocol: 'lwm2m',
        upPacketSN: -1,
        upDataSN: -1,
        topic: '',
        serviceId: '',
        timestamp: ms,
        payload: { APPdata: toBase64(r.data) },
      };
    case 'ChinaUnicom':
      return {
        notifyType: 'deviceDataChanged',
        requestId: r.messageId,
        deviceId: platformDeviceId(r.imei),
        gatewayId: platformDeviceId(r.imei),
        nodeId: r.imei,
        service: {
          serviceId: 'LockData',
          serviceType: 'LockData',
          data: { rawData: toBase64(r.data) },
          eventTime: formatCompactTime(r.time),
        },
      };
    case 'ChinaMobile':
      return {
        msg: {
          type: 1,
          imei: r.imei,
          dev_id: Number(r.imei.slice(-9)),
          ds_id: '19_0_0',
          at: ms,
          value: toHex(r.data),
        },
        msg_signature: 'simulated',
        nonce: 'simulated',
      };
  }
}

function oneNetStatusCodes(status: string): { send_status: number; confirm_status?: number } {
  switch (nbCommandOutcome(status)) {
    case 'NB_Pending':
      return { send_status: 1 };
    case 'NB_Canceled':
      return { send_status: 2 };
    case 'NB_Send':
      return { send_status: 3 };
    case 'NB_Expired':
      return { send_status: 4 };
    case 'NB_Delivered':
      return { send_status: 5 };
    case 'NB_Failed':
      return { send_status: 6 };
    case 'NB_Successful':
      return { send_status: 5, confirm_status: ONENET_CONFIRM_SUCCESS };
    case 'NB_Timeout':
      return { send_status: 5, confirm_status: ONENET_CONFIRM_TIMEOUT };
    default:
      return { send_status: ONENET_SEND_OTHER };
  }
}

/** The body a platform POSTs when a command changes state; `status` is the platform's word (e.g. DELIVERED). */
export function encodeNbCommandStatus(
  platform: NbPlatform,
  s: { imei: string; commandId: string; status: string; time: Date },
): unknown {
  switch (platform) {
    case 'ChinaTelecom':
      return {
        messageType: 'commandResponse',
        tenantId: SIMULATED_TENANT_ID,
        productId: SIMULATED_PRODUCT_ID,
        deviceId: platformDeviceId(s.imei),
        IMEI: s.imei,
        // CTWing task ids are numbers; a command id that is not one is sent as text.
        taskId: /^(?:0|[1-9]\d{0,14})$/.test(s.commandId) ? Number(s.commandId) : s.commandId,
        timestamp: s.time.getTime(),
        result: { resultCode: s.status, resultDetail: null },
      };
    case 'ChinaUnicom':
      return {
        notifyType: 'deviceCommandStatus',
        deviceId: platformDeviceId(s.imei),
        nodeId: s.imei,
        commandId: s.commandId,
        result: { resultCode: s.status, resultDetail: null },
        eventTime: formatCompactTime(s.time),
      };
    case 'ChinaMobile':
      return {
        msg: {
          type: 7,
          imei: s.imei,
          dev_id: Number(s.imei.slice(-9)),
          cmd_id: s.commandId,
          cmd_type: 1,
          ...oneNetStatusCodes(s.status),
          at: s.time.getTime(),
        },
        msg_signature: 'simulated',
        nonce: 'simulated',
      };
  }
}
