/**
 * China Telecom's AEP (CTWing) command API, "AEP指令下发" CreateCommand (API version 20190712225145):
 *
 *   POST {base}/aep_device_command/command
 *   headers  application: {App Key}, timestamp: {ms}, version: 20190712225145, MasterKey: {product's key},
 *            signature: base64(HMAC-SHA1(App Secret, "application:{key}\ntimestamp:{ms}\n" + the MasterKey
 *            header and query parameters as "name:value\n" sorted by name + body + "\n"))
 *   body     {"content":{"dataType":2,"payload":"<hex>"},"deviceId","operator","productId":<number>,"ttl":<s>,
 *            "level":1}   (dataType 2: the payload is hex text — LwM2M / TCP transparent transmission)
 *   answer   {"code":0,"msg":"ok","result":{"commandId":"674","commandStatus":"指令已保存",…}}
 *
 * Status changes come back through the subscription push (`commandResponse`, `taskId` = commandId), which
 * the callback route already reads.
 */
import { createHmac } from 'node:crypto';
import type { DeviceCommand } from '@uiot/device-protocol';
import {
  commandIdIn,
  fieldOf,
  type NbTarget,
  notAddressable,
  type OneRequestApi,
  type PlatformAnswer,
  type PlatformRequest,
  platformFailure,
  secondsLeft,
  unknownDevice,
} from './nb-command-platform.ts';

export const CTWING_COMMAND_VERSION = '20190712225145';
const COMMAND_PATH = '/aep_device_command/command';
/** Who the platform records as the command's operator. */
const OPERATOR = 'uiot';
/** The longest the platform keeps a command for a sleeping device (its documented maximum). */
const MAX_TTL_SECONDS = 864_000;

export interface CtwingSettings {
  baseUrl: string;
  appKey: string;
  appSecret: string;
  masterKey: string;
  /** The product when the ledger names none. */
  productId: string | undefined;
}

/**
 * AEP's signature: the App Key and timestamp, then the signed parameters (MasterKey header, query) sorted
 * by name, then the body, each line ending in `\n`; HMAC-SHA1 with the App Secret, base64.
 */
export function aepSignature(input: {
  appKey: string;
  appSecret: string;
  timestamp: number;
  params: Record<string, string>;
  body: string;
}): string {
  let text = `application:${input.appKey}\ntimestamp:${input.timestamp}\n`;
  for (const name of Object.keys(input.params).sort()) text += `${name}:${input.params[name]}\n`;
  if (input.body.length > 0) text += `${input.body}\n`;
  return createHmac('sha1', input.appSecret).update(text, 'utf8').digest('base64');
}

/** The product of a device: the ledger's, else the configured one. */
export function ctwingProductOf(
  settings: Pick<CtwingSettings, 'productId'>,
  target: NbTarget,
): string | undefined {
  return target.productId ?? settings.productId;
}

/** AEP names an NB device by its product and IMEI, unless its callbacks told another id. */
export function ctwingDeviceIdOf(settings: Pick<CtwingSettings, 'productId'>, target: NbTarget): string {
  return target.platformDeviceId ?? `${ctwingProductOf(settings, target) ?? ''}${target.imei}`;
}

/** The CreateCommand request for one lock command (pure; `now` in ms). */
export function ctwingCommandRequest(
  settings: CtwingSettings,
  target: NbTarget,
  payload: Uint8Array,
  command: Pick<DeviceCommand, 'expireAt'>,
  now: number,
): PlatformRequest {
  const productId = ctwingProductOf(settings, target);
  // Without a product there is no device to name: sending again cannot mend the ledger.
  if (!productId) throw notAddressable('ChinaTelecom', 'productId');
  const ttl = Math.min(MAX_TTL_SECONDS, secondsLeft(command.expireAt, now));
  const body = JSON.stringify({
    content: { dataType: 2, payload: Buffer.from(payload).toString('hex').toUpperCase() },
    deviceId: ctwingDeviceIdOf(settings, target),
    operator: OPERATOR,
    productId: Number(productId),
    ttl,
    level: 1,
  });
  const signature = aepSignature({
    appKey: settings.appKey,
    appSecret: settings.appSecret,
    timestamp: now,
    params: { MasterKey: settings.masterKey },
    body,
  });
  return {
    method: 'POST',
    url: `${settings.baseUrl.replace(/\/+$/, '')}${COMMAND_PATH}`,
    headers: {
      'content-type': 'application/json; charset=UTF-8',
      application: settings.appKey,
      timestamp: String(now),
      version: CTWING_COMMAND_VERSION,
      MasterKey: settings.masterKey,
      signature,
    },
    body,
  };
}

/** AEP's answer → the command id; an error answer throws (a hopeless one as an unknown device). */
export function parseCtwingAnswer(answer: PlatformAnswer): { receiveId: string } {
  const code = fieldOf(answer.body, 'code');
  if (answer.status === 404) throw unknownDevice();
  if (answer.status < 200 || answer.status >= 300) {
    throw platformFailure(
      'ChinaTelecom',
      `HTTP ${answer.status}${code === undefined ? '' : ` code ${code}`}`,
    );
  }
  if (code !== 0 && code !== '0') throw platformFailure('ChinaTelecom', `code ${String(code)}`);
  return commandIdIn('ChinaTelecom', fieldOf(fieldOf(answer.body, 'result'), 'commandId'), 'commandId');
}

/** CTWing AEP: one signed CreateCommand per command. */
export const CTWING_API: OneRequestApi<CtwingSettings> = {
  platform: 'ChinaTelecom',
  deviceIdOf: ctwingDeviceIdOf,
  request: ctwingCommandRequest,
  parse: parseCtwingAnswer,
};
