import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { api } from '@uiot/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureRequests, upload } from './api-client.ts';
import {
  buildQueryString,
  fileNameOfDisposition,
  RequestClient,
  type RequestClientConfig,
} from './request-client.ts';
import type { RequestError } from './request-error.ts';

/** What the test server saw of each call. */
interface Seen {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: string;
}

const seen: Seen[] = [];
let server: Server;
let baseUrl: string;

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  res.writeHead(status, { 'Content-Type': type });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

const ok = (data: unknown) => ({ success: true, data, code: 200, message: '' });

/** A real HTTP server with one route per behaviour the request layer must handle. */
function route(req: IncomingMessage, res: ServerResponse, url: URL, body: string): void {
  const delay = Number(url.searchParams.get('delay') ?? 0);
  const reply = () => {
    switch (url.pathname) {
      case '/api/echo':
        return send(
          res,
          200,
          ok({ method: req.method, query: url.search, body: body ? JSON.parse(body) : null }),
        );
      case '/api/slow':
        return send(res, 200, ok(url.searchParams.get('n')));
      case '/api/wrong-password':
        return send(res, 200, {
          success: false,
          data: null,
          code: 1001,
          message: 'Incorrect username or password',
        });
      case '/api/too-soon':
        return send(res, 200, {
          success: false,
          data: { resendAfterSeconds: 42 },
          code: 1052,
          message: 'A code was sent already, please try again in 42 s',
        });
      case '/api/invalid':
        return send(res, 400, {
          success: false,
          data: [{ path: 'email', message: 'Enter a valid email address' }],
          code: 400,
          message: 'Invalid input, please check',
        });
      case '/api/expired':
        return send(res, 401, { success: false, data: null, code: 401, message: 'Identity expired' });
      case '/api/password-change-required':
        return send(res, 403, {
          success: false,
          data: null,
          code: 1015,
          message: 'Change your password before using the console',
        });
      case '/api/broken':
        return send(res, 502, '<html>Bad Gateway</html>', 'text/html');
      case '/api/export':
        res.writeHead(200, {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="oplog.csv"; filename*=UTF-8''${encodeURIComponent('操作日志.csv')}`,
        });
        return res.end('\uFEFFid,name\r\n1,a\r\n');
      case '/api/file/upload':
        return send(res, 200, ok({ contentType: req.headers['content-type'], query: url.search, body }));
      case '/api/export-too-large':
        return send(res, 200, { success: false, data: null, code: 1060, message: 'Too much data' });
      case '/api/not-an-envelope':
        return send(res, 200, { rows: [] });
      default:
        return send(res, 404, { success: false, data: null, code: 404, message: 'Not found' });
    }
  };
  setTimeout(reply, delay);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      seen.push({ method: req.method ?? '', url, headers: req.headers, body });
      route(req, res, url, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
});

function client(overrides: Partial<RequestClientConfig> = {}) {
  const onFailure = vi.fn<(error: RequestError) => void>();
  const onSessionExpired = vi.fn<() => void>();
  const instance = new RequestClient({
    baseUrl,
    timeout: 2000,
    headers: ({ noToken }) => ({
      'Accept-Language': 'en',
      'X-Station-Id': 'ST01',
      ...(noToken ? {} : { Authorization: 'Bearer t0k3n' }),
    }),
    onFailure,
    onSessionExpired,
    ...overrides,
  });
  return { instance, onFailure, onSessionExpired };
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: RequestError) => error,
  );

describe('RequestClient: requests', () => {
  it('adds the timestamp _t to GET calls and sends the query and the headers', async () => {
    const { instance } = client({ now: () => 1_700_000_000_000 });
    await instance.request({
      method: 'GET',
      path: '/echo',
      query: { name: 'a b', ids: [1, 2], skip: undefined },
    });
    const [call] = seen;
    expect(call?.url.searchParams.get('_t')).toBe('1700000000000');
    expect(call?.url.searchParams.get('name')).toBe('a b');
    expect(call?.url.searchParams.getAll('ids')).toEqual(['1', '2']);
    expect(call?.url.searchParams.has('skip')).toBe(false);
    expect(call?.headers.authorization).toBe('Bearer t0k3n');
    expect(call?.headers['x-station-id']).toBe('ST01');
    expect(call?.headers['accept-language']).toBe('en');
  });

  it('sends POST bodies as JSON without a timestamp, and no token for noToken calls', async () => {
    const { instance } = client();
    const data = await instance.request<{ body: unknown }>(
      { method: 'POST', path: '/echo', body: { name: 'admin' } },
      { noToken: true },
    );
    expect(data.body).toEqual({ name: 'admin' });
    expect(seen[0]?.url.searchParams.has('_t')).toBe(false);
    expect(seen[0]?.headers['content-type']).toBe('application/json');
    expect(seen[0]?.headers.authorization).toBeUndefined();
  });

  it('sends a display token instead of the session token when given one', async () => {
    const { instance } = client();
    await instance.request({ method: 'GET', path: '/echo' }, { token: 'd1spl4y' });
    expect(seen[0]?.headers.authorization).toBe('Bearer d1spl4y');
  });

  it("hands every answer's Date header to onServerDate with when the call went and its answer came", async () => {
    let clock = 1_700_000_000_000;
    const given: number[] = [];
    const now = () => {
      clock += 10;
      given.push(clock);
      return clock;
    };
    const onServerDate = vi.fn<(date: string | null, sentAt: number, receivedAt: number) => void>();
    const { instance } = client({ now, onServerDate });
    await instance.request({ method: 'GET', path: '/echo' });
    expect(onServerDate).toHaveBeenCalledTimes(1);
    const [date, sentAt, receivedAt] = onServerDate.mock.calls[0]!;
    // Node's HTTP server dates every answer, as the console's server does.
    expect(Number.isNaN(Date.parse(date ?? ''))).toBe(false);
    // Taken just before the call went and when its answer came: the last two readings of the clock.
    expect([sentAt, receivedAt]).toEqual(given.slice(-2));
    // A failure's answer is dated too.
    await failureOf(instance.request({ method: 'GET', path: '/wrong-password' }));
    expect(onServerDate).toHaveBeenCalledTimes(2);
  });

  it('builds query strings without empty values', () => {
    expect(buildQueryString({ a: 1, b: null, c: undefined, d: false })).toBe('?a=1&d=false');
    expect(buildQueryString(undefined)).toBe('');
  });
});

describe('RequestClient: cancellation', () => {
  it('cancels an earlier call to the same URL, silently', async () => {
    const { instance, onFailure } = client();
    const first = failureOf(instance.request({ method: 'GET', path: '/slow', query: { n: 1, delay: 300 } }));
    const second = instance.request({ method: 'GET', path: '/slow', query: { n: 2, delay: 10 } });
    expect(await first).toMatchObject({ kind: 'cancelled', cancelReason: 'superseded' });
    expect(await second).toBe('2');
    expect(onFailure).not.toHaveBeenCalled();
  });

  it('keeps an earlier call made with canCancel: false', async () => {
    const { instance } = client();
    const first = instance.request(
      { method: 'GET', path: '/slow', query: { n: 1, delay: 50 } },
      { canCancel: false },
    );
    const second = instance.request({ method: 'GET', path: '/slow', query: { n: 2, delay: 10 } });
    expect(await Promise.all([first, second])).toEqual(['1', '2']);
  });

  it('does not cancel calls to other URLs', async () => {
    const { instance } = client();
    const results = await Promise.all([
      instance.request({ method: 'GET', path: '/slow', query: { n: 1, delay: 30 } }),
      instance.request<{ method: string }>({ method: 'GET', path: '/echo' }),
    ]);
    expect(results[0]).toBe('1');
  });

  it('cancels all pending calls; canCancel: false ones only when forced (sign-out)', async () => {
    const { instance, onFailure } = client();
    const ordinary = failureOf(
      instance.request({ method: 'GET', path: '/slow', query: { n: 1, delay: 300 } }),
    );
    const pinned = instance.request(
      { method: 'GET', path: '/echo', query: { delay: 100 } },
      { canCancel: false },
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    instance.cancelAll();
    expect(await ordinary).toMatchObject({ kind: 'cancelled', cancelReason: 'navigation' });
    await expect(pinned).resolves.toBeTruthy();

    const forced = failureOf(
      instance.request({ method: 'GET', path: '/slow', query: { delay: 300 } }, { canCancel: false }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    instance.cancelAll({ force: true, reason: 'user' });
    expect(await forced).toMatchObject({ kind: 'cancelled', cancelReason: 'user' });
    expect(onFailure).not.toHaveBeenCalled();
  });

  it('cancels when the caller signal aborts', async () => {
    const { instance } = client();
    const controller = new AbortController();
    const call = failureOf(
      instance.request(
        { method: 'GET', path: '/slow', query: { delay: 300 } },
        { signal: controller.signal },
      ),
    );
    controller.abort();
    expect(await call).toMatchObject({ kind: 'cancelled', cancelReason: 'caller' });
  });

  it('gives up after the timeout and reports it', async () => {
    const { instance, onFailure } = client({ timeout: 50 });
    const error = await failureOf(instance.request({ method: 'GET', path: '/slow', query: { delay: 400 } }));
    expect(error.kind).toBe('timeout');
    expect(onFailure).toHaveBeenCalledOnce();
  });
});

describe('RequestClient: failures', () => {
  it('rejects a business failure with its code and the server message', async () => {
    const { instance, onFailure } = client();
    const error = await failureOf(instance.request({ method: 'POST', path: '/wrong-password', body: {} }));
    expect(error).toMatchObject({
      kind: 'business',
      code: 1001,
      serverMessage: 'Incorrect username or password',
    });
    expect(onFailure).toHaveBeenCalledWith(error);
  });

  it('keeps the data of a business failure', async () => {
    const { instance } = client();
    const error = await failureOf(instance.request({ method: 'GET', path: '/too-soon' }));
    expect(error).toMatchObject({ kind: 'business', code: 1052, data: { resendAfterSeconds: 42 } });
  });

  it('rejects an HTTP 400 with the field issues', async () => {
    const { instance } = client();
    const error = await failureOf(instance.request({ method: 'POST', path: '/invalid', body: {} }));
    expect(error).toMatchObject({ kind: 'http', status: 400, code: 400 });
    expect(error.issues).toEqual([{ path: 'email', message: 'Enter a valid email address' }]);
  });

  it('rejects a non-JSON error page by its status', async () => {
    const { instance } = client();
    const error = await failureOf(instance.request({ method: 'GET', path: '/broken' }));
    expect(error).toMatchObject({ kind: 'http', status: 502, serverMessage: undefined });
    expect(error.url).toBe(`${baseUrl}/broken`);
  });

  it('rejects a 2xx answer without an envelope as empty', async () => {
    const { instance } = client();
    expect((await failureOf(instance.request({ method: 'GET', path: '/not-an-envelope' }))).kind).toBe(
      'empty',
    );
  });

  it('rejects an unreachable server as a network failure', async () => {
    const { instance } = client({ baseUrl: 'http://127.0.0.1:9/api' });
    expect((await failureOf(instance.request({ method: 'GET', path: '/echo' }))).kind).toBe('network');
  });

  it('does not report silent calls', async () => {
    const { instance, onFailure } = client();
    await failureOf(instance.request({ method: 'GET', path: '/broken' }, { silent: true }));
    expect(onFailure).not.toHaveBeenCalled();
  });
});

describe('RequestClient: session expiry', () => {
  it('logs out exactly once when several calls meet an expired session', async () => {
    const { instance, onFailure, onSessionExpired } = client();
    const errors = await Promise.all(
      ['/expired', '/expired', '/expired'].map((path, i) =>
        failureOf(instance.request({ method: 'GET', path, query: { i } }, { canCancel: false })),
      ),
    );
    expect(errors.every((error) => error.isSessionExpired)).toBe(true);
    expect(onSessionExpired).toHaveBeenCalledOnce();
    expect(onFailure).toHaveBeenCalledOnce();

    await failureOf(instance.request({ method: 'GET', path: '/expired' }));
    expect(onSessionExpired).toHaveBeenCalledOnce();

    instance.markSignedIn();
    await failureOf(instance.request({ method: 'GET', path: '/expired' }));
    expect(onSessionExpired).toHaveBeenCalledTimes(2);
  });

  it('leaves a refused display token to the caller: the session does not end', async () => {
    const { instance, onFailure, onSessionExpired } = client();
    const error = await failureOf(
      instance.request({ method: 'GET', path: '/expired' }, { token: 'd1spl4y', silent: true }),
    );
    expect(error.status).toBe(401);
    expect(onSessionExpired).not.toHaveBeenCalled();
    expect(onFailure).not.toHaveBeenCalled();
  });

  it('stays silent while signing out', async () => {
    const { instance, onFailure, onSessionExpired } = client();
    instance.beginSignOut();
    await failureOf(instance.request({ method: 'GET', path: '/expired' }));
    await failureOf(instance.request({ method: 'GET', path: '/broken' }));
    instance.endSignOut();
    expect(onSessionExpired).not.toHaveBeenCalled();
    expect(onFailure).not.toHaveBeenCalled();
  });
});

describe('RequestClient: forced password change', () => {
  it('hands a call refused until the password is changed to the console, silent or not, never as a failure', async () => {
    const onPasswordChangeRequired = vi.fn<() => void>();
    const { instance, onFailure, onSessionExpired } = client({ onPasswordChangeRequired });
    const loud = await failureOf(instance.request({ method: 'GET', path: '/password-change-required' }));
    const quiet = await failureOf(
      instance.request({ method: 'POST', path: '/password-change-required', body: {} }, { silent: true }),
    );
    for (const error of [loud, quiet]) {
      expect(error).toMatchObject({ kind: 'http', status: 403, code: 1015 });
      expect(error.isPasswordChangeRequired).toBe(true);
      expect(error.isSessionExpired).toBe(false);
    }
    expect(onPasswordChangeRequired).toHaveBeenCalledTimes(2);
    expect(onFailure).not.toHaveBeenCalled();
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('stays silent while signing out, and other 403s are failures as before', async () => {
    const onPasswordChangeRequired = vi.fn<() => void>();
    const { instance, onFailure } = client({ onPasswordChangeRequired });
    instance.beginSignOut();
    await failureOf(instance.request({ method: 'GET', path: '/password-change-required' }));
    instance.endSignOut();
    expect(onPasswordChangeRequired).not.toHaveBeenCalled();

    const other = await failureOf(instance.request({ method: 'GET', path: '/wrong-password' }));
    expect(other.isPasswordChangeRequired).toBe(false);
    expect(onFailure).toHaveBeenCalledOnce();
    expect(onPasswordChangeRequired).not.toHaveBeenCalled();
  });
});

describe('RequestClient: loading overlay', () => {
  it('counts pending calls except noOverlay ones, with the time the wait began', async () => {
    let now = 1000;
    const { instance } = client({ now: () => now });
    const changes: number[] = [];
    instance.subscribePending(() => changes.push(instance.pendingState.count));

    const background = instance.request(
      { method: 'GET', path: '/echo', query: { delay: 60 } },
      { noOverlay: true, canCancel: false },
    );
    expect(instance.pendingState).toEqual({ count: 0, since: null });
    const first = instance.request({ method: 'GET', path: '/slow', query: { delay: 40 } });
    now = 2000;
    const second = instance.request({ method: 'GET', path: '/echo', query: { delay: 20 } });
    expect(instance.pendingState).toEqual({ count: 2, since: 1000 });
    await Promise.all([first, second, background]);
    expect(instance.pendingState).toEqual({ count: 0, since: null });
    expect(changes).toEqual([1, 2, 1, 0]);
  });
});

describe('RequestClient: downloads', () => {
  it('gives a file answer as a blob with the name the server gave it, through the same request layer', async () => {
    const { instance } = client({ now: () => 5 });
    const result = await instance.download({ method: 'GET', path: '/export', query: { userName: 'x' } });
    expect(result.kind).toBe('file');
    if (result.kind !== 'file') return;
    expect(result.fileName).toBe('操作日志.csv');
    expect(new Uint8Array(await result.blob.arrayBuffer()).slice(0, 3)).toEqual(
      new Uint8Array([0xef, 0xbb, 0xbf]),
    );
    expect(seen[0]?.url.search).toBe('?userName=x&_t=5');
    expect(seen[0]?.headers.authorization).toBe('Bearer t0k3n');
  });

  it('rejects an envelope failure (export too large) with its code, and gives envelope data as data', async () => {
    const { instance, onFailure } = client();
    const error = await failureOf(instance.download({ method: 'GET', path: '/export-too-large' }));
    expect(error).toMatchObject({ kind: 'business', code: 1060 });
    expect(onFailure).toHaveBeenCalledTimes(1);
    expect(await instance.download({ method: 'GET', path: '/echo' })).toMatchObject({
      kind: 'data',
      data: { method: 'GET' },
    });
  });

  it('reads file names from Content-Disposition', () => {
    expect(fileNameOfDisposition('attachment; filename="a b.csv"')).toBe('a b.csv');
    expect(fileNameOfDisposition('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(fileNameOfDisposition('attachment; filename="x.csv"; filename*=UTF-8\'\'%E5%8F%82.csv')).toBe(
      '参.csv',
    );
    expect(fileNameOfDisposition('inline')).toBeNull();
    expect(fileNameOfDisposition(null)).toBeNull();
  });
});

describe('upload', () => {
  it('sends the file as multipart/form-data in the part the contract names, through the same request layer', async () => {
    configureRequests({
      baseUrl,
      timeout: 2000,
      headers: () => ({ Authorization: 'Bearer t0k3n', 'Accept-Language': 'en' }),
    });
    const file = new Blob(['\x89PNG signature bytes'], { type: 'image/png' });
    const answer = (await upload(api.file.upload, {
      query: { kind: 'signature' },
      file,
      fileName: '签名.png',
    })) as unknown as { contentType: string; query: string; body: string };
    expect(answer.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(answer.query).toBe('?kind=signature');
    expect(answer.body).toContain('Content-Disposition: form-data; name="file"; filename="签名.png"');
    expect(answer.body).toContain('Content-Type: image/png');
    expect(answer.body).toContain('PNG signature bytes');
    const call = seen.at(-1)!;
    expect(call.method).toBe('POST');
    expect(call.headers.authorization).toBe('Bearer t0k3n');
  });
});
