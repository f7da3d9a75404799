/**
 * China Mobile's OneNET NB-IoT API, the cached ("offline") write of a device resource, so that a sleeping
 * lock gets the command when it next reports:
 *
 *   POST {base}/nbiot/offline?imei=&obj_id=19&obj_inst_id=1&mode=2&expired_time=&retry=
 *   headers Authorization: version=2018-10-31&res=products%2F{pid}&et={s}&method=sha1&sign={url-encoded}
 *           sign = base64(HMAC-SHA1(base64decode(access key), et + "\n" + method + "\n" + res + "\n" + version))
 *           Content-Type: application/json
 *   body    {"data":[{"res_id":0,"type":1,"val":"<hex>"}]}   (type 1: Opaque, val is hex text)
 *   answer  {"errno":0,"error":"succ","data":{"uuid":"<cached command id>"}}
 *
 * The resource is LwM2M's binary app data container (object 19), instance 1 the downlink (instance 0 is
 * the uplink the callbacks read). The cached command's state changes come back as HTTP push messages of
 * type 7 naming it in `cmd_id`, which the callback route already reads.
 */
import { createHmac } from 'node:crypto';
import type { DeviceCommand } from '@uiot/device-protocol';
import {
  commandIdIn,
  fieldOf,
  type NbTarget,
  type OneRequestApi,
  type PlatformAnswer,
  type PlatformRequest,
  platformFailure,
  secondsLeft,
  unknownDevice,
} from './nb-command-platform.ts';

const COMMAND_PATH = '/nbiot/offline';
const TOKEN_VERSION = '2018-10-31';
const TOKEN_METHOD = 'sha1';
/** How long a token signed for one request stays valid. */
const TOKEN_SECONDS = 300;
/** LwM2M binary app data container: the downlink instance and its data resource. */
const OBJECT = { obj_id: '19', obj_inst_id: '1', res_id: 0 } as const;
/** How often OneNET offers a cached command again (next update or registration), at most 10. */
const RETRY = 3;
/** errno of an unknown device (API status codes of the NB northbound API). */
const UNKNOWN_DEVICE_ERRNOS = new Set([3]);

export interface OneNetSettings {
  baseUrl: string;
  productId: string;
  /** The product's access key, base64 as OneNET shows it. */
  accessKey: string;
}

/** OneNET's security token of the API (`Authorization` header); `now` in ms. */
export function oneNetToken(settings: Pick<OneNetSettings, 'productId' | 'accessKey'>, now: number): string {
  const res = `products/${settings.productId}`;
  const et = String(Math.floor(now / 1000) + TOKEN_SECONDS);
  const sign = createHmac(TOKEN_METHOD, Buffer.from(settings.accessKey, 'base64'))
    .update(`${et}\n${TOKEN_METHOD}\n${res}\n${TOKEN_VERSION}`, 'utf8')
    .digest('base64');
  return new URLSearchParams({ version: TOKEN_VERSION, res, et, method: TOKEN_METHOD, sign }).toString();
}

/** OneNET's time text (China Standard Time, as its servers keep it): `yyyy-MM-ddTHH:mm:ss`. */
export function oneNetTime(ms: number): string {
  return new Date(ms + 8 * 3600_000).toISOString().slice(0, 19);
}

/** The cached write request for one lock command (pure; `now` in ms). */
export function oneNetCommandRequest(
  settings: OneNetSettings,
  target: NbTarget,
  payload: Uint8Array,
  command: Pick<DeviceCommand, 'expireAt'>,
  now: number,
): PlatformRequest {
  const query = new URLSearchParams({
    imei: target.imei,
    obj_id: OBJECT.obj_id,
    obj_inst_id: OBJECT.obj_inst_id,
    mode: '2',
    expired_time: oneNetTime(now + secondsLeft(command.expireAt, now) * 1000),
    retry: String(RETRY),
  });
  return {
    method: 'POST',
    url: `${settings.baseUrl.replace(/\/+$/, '')}${COMMAND_PATH}?${query}`,
    headers: { 'content-type': 'application/json', authorization: oneNetToken(settings, now) },
    body: JSON.stringify({
      data: [{ res_id: OBJECT.res_id, type: 1, val: Buffer.from(payload).toString('hex').toUpperCase() }],
    }),
  };
}

/** OneNET's answer → the cached command's uuid; an error answer throws (an unknown device is hopeless). */
export function parseOneNetAnswer(answer: PlatformAnswer): { receiveId: string } {
  const errno = fieldOf(answer.body, 'errno');
  if (typeof errno === 'number' && UNKNOWN_DEVICE_ERRNOS.has(errno)) throw unknownDevice();
  if (answer.status < 200 || answer.status >= 300)
    throw platformFailure('ChinaMobile', `HTTP ${answer.status}`);
  if (errno !== 0) throw platformFailure('ChinaMobile', `errno ${String(errno)}`);
  return commandIdIn('ChinaMobile', fieldOf(fieldOf(answer.body, 'data'), 'uuid'), 'uuid');
}

/** OneNET: one cached write per command, addressed by IMEI. */
export const ONENET_API: OneRequestApi<OneNetSettings> = {
  platform: 'ChinaMobile',
  deviceIdOf: (_settings, target) => target.imei,
  request: oneNetCommandRequest,
  parse: parseOneNetAnswer,
};
