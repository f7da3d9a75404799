import { configure } from '@testing-library/react';
import type { PermissionKey, UserInfo } from '@uiot/contracts';
import { provideBrowserApis } from '../../test-jsdom.ts';
import { session } from '../auth/session.ts';
import { configureRequests } from '../request/index.ts';

/**
 * What component tests of pages share: a fake server behind the console's one request layer, and a
 * signed-in user holding the keys a test gives.
 */

/** A call a page made: its method, its path without `/api`, its query without `_t`, its JSON body. */
export interface FakeCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

/** Reads a request the page sent to the fake server. */
export function readCall(input: RequestInfo | URL, init?: RequestInit): FakeCall {
  const url = new URL(String(input));
  // `_t` (the request layer's timestamp on every GET) is left out.
  const { _t, ...query } = Object.fromEntries(url.searchParams);
  return {
    method: init?.method ?? 'GET',
    path: url.pathname.replace(/^\/api/, ''),
    query,
    body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
  };
}

/** A successful answer of the API envelope carrying `data`. */
export function answer(data: unknown): Response {
  return new Response(JSON.stringify({ success: true, code: 200, message: '', data }), {
    headers: { 'content-type': 'application/json' },
  });
}

/** Points the request layer at `fetch` and gives jsdom what antd needs: call once, before the first render. */
export function useFakeServer(fetch: typeof globalThis.fetch): void {
  configure({ asyncUtilTimeout: 10_000 });
  provideBrowserApis();
  configureRequests({ baseUrl: 'http://console.test/api', timeout: 10_000, headers: () => ({}), fetch });
}

/** Signs in a user holding exactly these keys. */
export function signInWith(permissions: readonly PermissionKey[]): void {
  session.set((state) => ({
    ...state,
    token: 'token',
    user: { id: 'me', name: 'me', permissions: [...permissions], menus: [] } as unknown as UserInfo,
    flags: {},
  }));
}

/**
 * A fake server answering each path from `answers` (a save: a new id; anything else: null), recording every
 * call in `calls`.
 */
export function answeringServer(answers: Record<string, unknown>, calls: FakeCall[]): typeof fetch {
  return async (input, init) => {
    const call = readCall(input as RequestInfo | URL, init);
    calls.push(call);
    return answer(
      call.path in answers ? answers[call.path] : call.path.endsWith('/save') ? { id: 'new' } : null,
    );
  };
}

/** The POST calls made, as method, path and body. */
export function postsOf(calls: readonly FakeCall[]): Omit<FakeCall, 'query'>[] {
  return calls.filter((call) => call.method === 'POST').map(({ query: _query, ...call }) => call);
}
