/**
 * China Unicom's IoT platform (Huawei OceanConnect, the "联通用户专用" northbound API):
 *
 *   POST {base}/iocm/app/sec/v1.1.0/login   (application/x-www-form-urlencoded: appId, secret)
 *     answer {"accessToken","tokenType":"bearer","refreshToken","expiresIn":<s>,"scope"}
 *   POST {base}/iocm/app/cmd/v1.4.0/deviceCommands?appId={appId}
 *     headers app_key: {appId}, Authorization: Bearer {accessToken}, Content-Type: application/json
 *     body    {"deviceId","command":{"serviceId","method","paras":{"rawData":"<base64>"}},"expireTime":<s>,
 *              "maxRetransmit":<n>, "callbackUrl"?}
 *     answer  201 {"commandId","appId","deviceId","command",…,"status":"PENDING"|"SENT"|…}
 *     error   4xx {"error_code":"100403","error_desc":"The device is not existed."}; 401/403 with error
 *             1010005 when the token is no longer valid.
 *
 * Status changes come back as `deviceCommandStatus` / `commandStatusChanged` notifications naming the
 * commandId, which the callback route already reads.
 */
import { ResultCode } from '@uiot/contracts';
import type { DeviceCommand } from '@uiot/device-protocol';
import { AppError } from '../../http/app-error.ts';
import {
  callPlatform,
  commandIdIn,
  fieldOf,
  type NbCommandPlatform,
  type NbTarget,
  type PlatformAnswer,
  type PlatformRequest,
  platformFailure,
  secondsLeft,
  unknownDevice,
} from './nb-command-platform.ts';

const LOGIN_PATH = '/iocm/app/sec/v1.1.0/login';
const COMMAND_PATH = '/iocm/app/cmd/v1.4.0/deviceCommands';
/** The profile's service and command that carry the lock's binary command (`rawData`, base64). */
export const OCEANCONNECT_SERVICE_ID = 'LockCommand';
export const OCEANCONNECT_METHOD = 'RAW';
/** Error codes saying the platform does not know the device. */
const UNKNOWN_DEVICE_CODES = new Set(['100403', '100418']);
/** A token is renewed this long before the platform said it expires. */
const TOKEN_MARGIN_MS = 60_000;
/** The platform's own retransmission of a command to a sleeping device (its documented maximum is 3). */
const MAX_RETRANSMIT = 3;

export interface OceanConnectSettings {
  baseUrl: string;
  appId: string;
  secret: string;
  /** Where the platform posts the command's status changes (our callback, as the gateway forwards it). */
  callbackUrl: string | undefined;
}

const base = (settings: OceanConnectSettings) => settings.baseUrl.replace(/\/+$/, '');

/** The login request (pure). */
export function oceanConnectLoginRequest(settings: OceanConnectSettings): PlatformRequest {
  return {
    method: 'POST',
    url: `${base(settings)}${LOGIN_PATH}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ appId: settings.appId, secret: settings.secret }).toString(),
  };
}

/** The login answer → the token and when it expires (ms). */
export function parseOceanConnectLogin(
  answer: PlatformAnswer,
  now: number,
): { token: string; expiresAt: number } {
  const token = fieldOf(answer.body, 'accessToken');
  if (answer.status !== 200 || typeof token !== 'string' || token.length === 0) {
    throw platformFailure('ChinaUnicom', `login HTTP ${answer.status}`);
  }
  const expiresIn = fieldOf(answer.body, 'expiresIn');
  const seconds = typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn : 3600;
  return { token, expiresAt: now + seconds * 1000 - TOKEN_MARGIN_MS };
}

/** The create-command request for one lock command (pure; `now` in ms). */
export function oceanConnectCommandRequest(
  settings: OceanConnectSettings,
  token: string,
  deviceId: string,
  payload: Uint8Array,
  command: Pick<DeviceCommand, 'expireAt'>,
  now: number,
): PlatformRequest {
  const body = {
    deviceId,
    command: {
      serviceId: OCEANCONNECT_SERVICE_ID,
      method: OCEANCONNECT_METHOD,
      paras: { rawData: Buffer.from(payload).toString('base64') },
    },
    expireTime: secondsLeft(command.expireAt, now),
    maxRetransmit: MAX_RETRANSMIT,
    ...(settings.callbackUrl ? { callbackUrl: settings.callbackUrl } : {}),
  };
  return {
    method: 'POST',
    url: `${base(settings)}${COMMAND_PATH}?${new URLSearchParams({ appId: settings.appId })}`,
    headers: {
      'content-type': 'application/json',
      app_key: settings.appId,
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify(body),
  };
}

/** Whether an answer says the token is no longer valid (log in again and repeat once). */
export function isExpiredToken(answer: PlatformAnswer): boolean {
  return answer.status === 401 || String(fieldOf(answer.body, 'error_code')) === '1010005';
}

/** The create-command answer → the command id; an error answer throws (an unknown device is hopeless). */
export function parseOceanConnectAnswer(answer: PlatformAnswer): { receiveId: string } {
  const errorCode = fieldOf(answer.body, 'error_code');
  if (answer.status < 200 || answer.status >= 300) {
    if (UNKNOWN_DEVICE_CODES.has(String(errorCode)) || answer.status === 404) throw unknownDevice();
    const code = errorCode === undefined ? '' : ` error_code ${String(errorCode)}`;
    throw platformFailure('ChinaUnicom', `HTTP ${answer.status}${code}`);
  }
  return commandIdIn('ChinaUnicom', fieldOf(answer.body, 'commandId'), 'commandId');
}

export class OceanConnectCommandPlatform implements NbCommandPlatform {
  private session: { token: string; expiresAt: number } | null = null;

  constructor(
    private readonly settings: OceanConnectSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** The platform's device id is its own (a UUID given at registration): it is learnt from its callbacks. */
  deviceIdOf(target: NbTarget): string {
    return target.platformDeviceId ?? '';
  }

  async send(target: NbTarget, payload: Uint8Array, command: DeviceCommand): Promise<{ receiveId: string }> {
    // Like a LoRaWAN application, the device id is learnt from the device's callbacks: before its first one
    // there is nowhere to send (an attempt, tried again).
    if (!target.platformDeviceId) throw new AppError(ResultCode.DeviceNotConnected);
    let answer = await this.create(target.platformDeviceId, payload, command, false);
    if (isExpiredToken(answer)) answer = await this.create(target.platformDeviceId, payload, command, true);
    return parseOceanConnectAnswer(answer);
  }

  private async create(
    deviceId: string,
    payload: Uint8Array,
    command: DeviceCommand,
    renew: boolean,
  ): Promise<PlatformAnswer> {
    const token = await this.token(renew);
    const request = oceanConnectCommandRequest(this.settings, token, deviceId, payload, command, this.now());
    return callPlatform('ChinaUnicom', request);
  }

  private async token(renew: boolean): Promise<string> {
    if (!renew && this.session && this.session.expiresAt > this.now()) return this.session.token;
    this.session = parseOceanConnectLogin(
      await callPlatform('ChinaUnicom', oceanConnectLoginRequest(this.settings)),
      this.now(),
    );
    return this.session.token;
  }
}
