import { ResultCode } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import {
  isExpiredToken,
  OCEANCONNECT_METHOD,
  OCEANCONNECT_SERVICE_ID,
  oceanConnectCommandRequest,
  oceanConnectLoginRequest,
  parseOceanConnectAnswer,
  parseOceanConnectLogin,
} from './oceanconnect.ts';
import { resultCodeThrownBy } from './test-support.ts';

const settings = {
  baseUrl: 'https://iot.example.cn:8743',
  appId: 'app-id-1',
  secret: 'unicom-secret-1',
  callbackUrl: 'https://console.example.cn/api/nbiot/chinaUnicom/callback',
};
const NOW = 1_763_750_000_000;

describe('China Unicom (OceanConnect) device commands', () => {
  it('logs in with appId and secret as a form', () => {
    const request = oceanConnectLoginRequest(settings);
    expect(request.url).toBe('https://iot.example.cn:8743/iocm/app/sec/v1.1.0/login');
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
      appId: 'app-id-1',
      secret: 'unicom-secret-1',
    });
  });

  it('keeps the token until a minute before it expires; a refused login fails the attempt', () => {
    expect(
      parseOceanConnectLogin(
        { status: 200, body: { accessToken: 't', tokenType: 'bearer', expiresIn: 3600 } },
        NOW,
      ),
    ).toEqual({ token: 't', expiresAt: NOW + 3_540_000 });
    expect(
      resultCodeThrownBy(() => parseOceanConnectLogin({ status: 401, body: { error_code: '1010009' } }, NOW)),
    ).toBe(ResultCode.ServiceUnavailable);
  });

  it('creates the command with app_key, the bearer token and the base64 payload', () => {
    const request = oceanConnectCommandRequest(
      settings,
      'tok',
      'dev-uuid',
      Uint8Array.of(1, 0x81, 0, 7, 1),
      { expireAt: NOW + 60_000 },
      NOW,
    );
    expect(request.url).toBe('https://iot.example.cn:8743/iocm/app/cmd/v1.4.0/deviceCommands?appId=app-id-1');
    expect(request.headers).toEqual({
      'content-type': 'application/json',
      app_key: 'app-id-1',
      authorization: 'Bearer tok',
    });
    expect(JSON.parse(request.body)).toEqual({
      deviceId: 'dev-uuid',
      command: {
        serviceId: OCEANCONNECT_SERVICE_ID,
        method: OCEANCONNECT_METHOD,
        paras: { rawData: Buffer.from([1, 0x81, 0, 7, 1]).toString('base64') },
      },
      expireTime: 60,
      maxRetransmit: 3,
      callbackUrl: settings.callbackUrl,
    });
  });

  it('reads the command id of a 201 answer', () => {
    expect(
      parseOceanConnectAnswer({ status: 201, body: { commandId: 'c-1', deviceId: 'd', status: 'PENDING' } }),
    ).toEqual({ receiveId: 'c-1' });
  });

  it('gives up on an unknown device, fails the attempt on other errors, and knows a stale token', () => {
    const notExisted = { error_code: '100403', error_desc: 'The device is not existed.' };
    expect(resultCodeThrownBy(() => parseOceanConnectAnswer({ status: 400, body: notExisted }))).toBe(
      ResultCode.DeviceNotRegistered,
    );
    expect(
      resultCodeThrownBy(() => parseOceanConnectAnswer({ status: 500, body: { error_code: '50252' } })),
    ).toBe(ResultCode.ServiceUnavailable);
    expect(resultCodeThrownBy(() => parseOceanConnectAnswer({ status: 201, body: {} }))).toBe(
      ResultCode.ServiceUnavailable,
    );
    expect(isExpiredToken({ status: 403, body: { error_code: '1010005' } })).toBe(true);
    expect(isExpiredToken({ status: 401, body: null })).toBe(true);
    expect(isExpiredToken({ status: 400, body: notExisted })).toBe(false);
  });
});
