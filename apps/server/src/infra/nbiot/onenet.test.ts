import { createHmac } from 'node:crypto';
import { ResultCode } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { oneNetCommandRequest, oneNetTime, oneNetToken, parseOneNetAnswer } from './onenet.ts';
import { resultCodeThrownBy } from './test-support.ts';

const ACCESS_KEY = Buffer.from('onenet-product-access-key-0001').toString('base64');
const settings = { baseUrl: 'https://api.heclouds.com', productId: '23104', accessKey: ACCESS_KEY };
const NOW = 1_763_750_000_000;

describe('China Mobile (OneNET) cached write', () => {
  it('signs et, method, res and version with the base64-decoded access key', () => {
    const token = new URLSearchParams(oneNetToken(settings, NOW));
    const et = String(Math.floor(NOW / 1000) + 300);
    expect(token.get('version')).toBe('2018-10-31');
    expect(token.get('res')).toBe('products/23104');
    expect(token.get('et')).toBe(et);
    expect(token.get('method')).toBe('sha1');
    const sign = createHmac('sha1', Buffer.from(ACCESS_KEY, 'base64'))
      .update(`${et}\nsha1\nproducts/23104\n2018-10-31`)
      .digest('base64');
    expect(token.get('sign')).toBe(sign);
    // the values are URL-encoded in the header
    expect(oneNetToken(settings, NOW)).toContain('res=products%2F23104');
  });

  it('writes the hex payload to the binary app data container of the IMEI, until the command expires', () => {
    const request = oneNetCommandRequest(
      settings,
      { imei: '864123456789012', productId: null, platformDeviceId: null },
      Uint8Array.of(1, 0x81, 0xab, 0xcd, 2),
      { expireAt: NOW + 600_000 },
      NOW,
    );
    const url = new URL(request.url);
    expect(url.origin + url.pathname).toBe('https://api.heclouds.com/nbiot/offline');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      imei: '864123456789012',
      obj_id: '19',
      obj_inst_id: '1',
      mode: '2',
      expired_time: '2025-11-22T02:43:20',
      retry: '3',
    });
    expect(request.headers.authorization).toBe(oneNetToken(settings, NOW));
    expect(JSON.parse(request.body)).toEqual({ data: [{ res_id: 0, type: 1, val: '0181ABCD02' }] });
  });

  it('writes times as China Standard Time', () => {
    expect(oneNetTime(Date.UTC(2025, 0, 1, 0, 0, 0))).toBe('2025-01-01T08:00:00');
  });

  it('reads the uuid of the cached command; errno other than 0 fails, an unknown device is hopeless', () => {
    expect(
      parseOneNetAnswer({ status: 200, body: { errno: 0, error: 'succ', data: { uuid: 'u-1' } } }),
    ).toEqual({
      receiveId: 'u-1',
    });
    expect(resultCodeThrownBy(() => parseOneNetAnswer({ status: 200, body: { errno: 7, error: 'x' } }))).toBe(
      ResultCode.ServiceUnavailable,
    );
    expect(resultCodeThrownBy(() => parseOneNetAnswer({ status: 502, body: null }))).toBe(
      ResultCode.ServiceUnavailable,
    );
    expect(
      resultCodeThrownBy(() =>
        parseOneNetAnswer({ status: 200, body: { errno: 3, error: 'device not exist' } }),
      ),
    ).toBe(ResultCode.DeviceNotRegistered);
  });
});
