import { createHmac } from 'node:crypto';
import { ResultCode } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import {
  aepSignature,
  CTWING_COMMAND_VERSION,
  ctwingCommandRequest,
  ctwingDeviceIdOf,
  parseCtwingAnswer,
} from './ctwing.ts';
import { resultCodeThrownBy } from './test-support.ts';

const settings = {
  baseUrl: 'https://ag-api.ctwing.cn/',
  appKey: 'dAaFG7DiPt8',
  appSecret: 'app-secret-1',
  masterKey: '0123456789abcdef0123456789abcdef',
  productId: '15099999',
};
const target = { imei: '864123456789012', productId: '15012345', platformDeviceId: null };
const NOW = 1_763_750_000_000;

describe('CTWing AEP CreateCommand', () => {
  it('signs application, timestamp, the MasterKey header and the body with HMAC-SHA1 of the App Secret', () => {
    const body = '{"a":1}';
    const expected = createHmac('sha1', 'app-secret-1')
      .update(`application:dAaFG7DiPt8\ntimestamp:${NOW}\nMasterKey:mk\nproductId:1\n${body}\n`)
      .digest('base64');
    expect(
      aepSignature({
        appKey: 'dAaFG7DiPt8',
        appSecret: 'app-secret-1',
        timestamp: NOW,
        params: { productId: '1', MasterKey: 'mk' },
        body,
      }),
    ).toBe(expected);
  });

  it('posts the hex payload to /aep_device_command/command with the signed headers', () => {
    const request = ctwingCommandRequest(
      settings,
      target,
      Uint8Array.of(0x01, 0x81, 0x12, 0x34, 0x01),
      { expireAt: NOW + 600_500 },
      NOW,
    );
    expect(request.url).toBe('https://ag-api.ctwing.cn/aep_device_command/command');
    expect(JSON.parse(request.body)).toEqual({
      content: { dataType: 2, payload: '0181123401' },
      deviceId: '15012345864123456789012',
      operator: 'uiot',
      productId: 15012345,
      ttl: 601,
      level: 1,
    });
    expect(request.headers).toMatchObject({
      application: 'dAaFG7DiPt8',
      timestamp: String(NOW),
      version: CTWING_COMMAND_VERSION,
      MasterKey: settings.masterKey,
    });
    const signed = createHmac('sha1', settings.appSecret)
      .update(
        `application:${settings.appKey}\ntimestamp:${NOW}\nMasterKey:${settings.masterKey}\n${request.body}\n`,
      )
      .digest('base64');
    expect(request.headers.signature).toBe(signed);
  });

  it("names the device by the id its callbacks gave, else by product and IMEI (the ledger's product first)", () => {
    expect(ctwingDeviceIdOf(settings, { ...target, platformDeviceId: 'abc' })).toBe('abc');
    expect(ctwingDeviceIdOf(settings, { ...target, productId: null })).toBe('15099999864123456789012');
  });

  it('reads the command id of a successful answer', () => {
    const answer = { code: 0, msg: 'ok', result: { commandId: '674', commandStatus: '指令已保存' } };
    expect(parseCtwingAnswer({ status: 200, body: answer })).toEqual({ receiveId: '674' });
    expect(parseCtwingAnswer({ status: 200, body: { ...answer, result: { commandId: 675 } } })).toEqual({
      receiveId: '675',
    });
  });

  it('fails the attempt on an error answer, and gives up on an unknown resource', () => {
    expect(
      resultCodeThrownBy(() => parseCtwingAnswer({ status: 200, body: { code: 8001, msg: 'bad' } })),
    ).toBe(ResultCode.ServiceUnavailable);
    expect(resultCodeThrownBy(() => parseCtwingAnswer({ status: 500, body: null }))).toBe(
      ResultCode.ServiceUnavailable,
    );
    expect(resultCodeThrownBy(() => parseCtwingAnswer({ status: 200, body: { code: 0, result: {} } }))).toBe(
      ResultCode.ServiceUnavailable,
    );
    expect(resultCodeThrownBy(() => parseCtwingAnswer({ status: 404, body: null }))).toBe(
      ResultCode.DeviceNotRegistered,
    );
  });
});
