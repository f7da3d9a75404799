import { describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n.ts';
import { describeFailure, failureReason } from './failure-notice.ts';
import { RequestError, type RequestErrorDetails } from './request-error.ts';

const URL = '/api/staff/loginCheck';
const failure = (details: Partial<RequestErrorDetails> & Pick<RequestErrorDetails, 'kind'>) =>
  new RequestError({ method: 'POST', url: URL, ...details });
const zh = (error: RequestError) => describeFailure(error, i18n.getFixedT('zh-CN'), 'zh-CN');
const en = (error: RequestError) => describeFailure(error, i18n.getFixedT('en'), 'en');

describe('describeFailure', () => {
  it('keeps cancelled calls silent', () => {
    expect(en(failure({ kind: 'cancelled' }))).toBeNull();
  });

  describe('business failures', () => {
    it('shows the console text of a code of 500 or above, followed by the code', () => {
      const error = failure({ kind: 'business', code: 1001, serverMessage: 'server text' });
      expect(zh(error)).toEqual({ channel: 'message', text: '用户名或密码错误（1001）' });
      expect(en(error)).toEqual({ channel: 'message', text: 'Incorrect username or password (1001)' });
    });

    it('falls back to the server text for an unknown code or a text with parameters', () => {
      expect(en(failure({ kind: 'business', code: 1999, serverMessage: 'Odd failure' }))?.text).toBe(
        'Odd failure (1999)',
      );
      expect(en(failure({ kind: 'business', code: 1002, serverMessage: 'Locked for 30 s' }))?.text).toBe(
        'Locked for 30 s (1002)',
      );
      expect(en(failure({ kind: 'business', code: 1999 }))?.text).toBe(
        'Unknown service error, the parameters may be wrong (1999)',
      );
    });

    it('shows the server text for a code below 500, or the unknown-error text', () => {
      expect(en(failure({ kind: 'business', code: 404, serverMessage: 'No such staff' }))).toEqual({
        channel: 'message',
        text: 'No such staff',
      });
      expect(zh(failure({ kind: 'business', code: 300 }))?.text).toBe('未知的服务错误，可能是参数有误');
    });

    it('treats a business session expiry as the session message', () => {
      expect(en(failure({ kind: 'business', code: 1004 }))?.text).toBe(
        'Identity expired, please log in again',
      );
    });
  });

  describe('HTTP failures', () => {
    it('shows 401 as an expired identity', () => {
      expect(zh(failure({ kind: 'http', status: 401 }))).toEqual({
        channel: 'message',
        text: '身份已过期，请重新登录',
      });
    });

    it('shows a catalogued status with its text, the status and the URL', () => {
      const notice = en(failure({ kind: 'http', status: 403, serverMessage: 'You have no permission' }));
      expect(notice).toEqual({
        channel: 'notification',
        title: 'Request refused',
        text: 'You have no permission',
        detail: `403 · POST ${URL}`,
      });
      expect(zh(failure({ kind: 'http', status: 502 }))?.title).toBe('网关错误');
      expect(zh(failure({ kind: 'http', status: 505 }))?.title).toBe('HTTP 版本不受支持');
    });

    it('lists the field issues of a 400', () => {
      const notice = en(
        failure({
          kind: 'http',
          status: 400,
          serverMessage: 'Invalid input, please check',
          issues: [{ path: 'email', message: 'Enter a valid email address' }],
        }),
      );
      expect(notice?.title).toBe('Bad request');
      expect(notice?.text).toBe('Invalid input, please check\nemail: Enter a valid email address');
    });

    it('shows an uncatalogued status as a response error with the server text and the path', () => {
      const notice = en(
        failure({ kind: 'http', status: 429, code: 1002, serverMessage: 'Try again in 60 s' }),
      );
      expect(notice).toEqual({
        channel: 'notification',
        title: 'Response error',
        text: 'Try again in 60 s',
        detail: `429 · POST ${URL}`,
      });
    });
  });

  it('shows a timeout with the catalogue text of 408 and the URL', () => {
    const notice = zh(failure({ kind: 'timeout' }));
    expect(notice?.title).toBe('请求超时，请稍后重试');
    expect(notice?.detail).toBe(`POST ${URL}`);
  });

  it('shows an unreachable server as a network error', () => {
    expect(en(failure({ kind: 'network' }))?.title).toBe('Network error');
  });

  it('shows an answer without data', () => {
    expect(en(failure({ kind: 'empty' }))).toEqual({
      channel: 'message',
      text: 'The service returned no data',
    });
  });
});

describe('failureReason', () => {
  const reason = (error: RequestError) => failureReason(error, i18n.getFixedT('en'), 'en');

  it('gives the server or code text of business and HTTP failures', () => {
    expect(reason(failure({ kind: 'business', code: 1040, serverMessage: 'x' }))).toBe(
      'This parameter cannot be changed (1040)',
    );
    expect(reason(failure({ kind: 'http', status: 400, serverMessage: 'Invalid input, please check' }))).toBe(
      'Invalid input, please check',
    );
    expect(reason(failure({ kind: 'http', status: 502 }))).toBe('Gateway error');
    expect(reason(failure({ kind: 'http', status: 418 }))).toBe('Response error');
  });

  it('gives the transport text otherwise, and nothing for a cancelled call', () => {
    expect(reason(failure({ kind: 'timeout' }))).toBe('The server did not answer in time');
    expect(reason(failure({ kind: 'network' }))).toBe('Cannot reach the server, please check the network');
    expect(reason(failure({ kind: 'cancelled' }))).toBe('');
  });
});
