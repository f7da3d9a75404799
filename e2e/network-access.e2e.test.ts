// The console as a machine on the operator's network sees it: reached by a host name that is not loopback
// (console.test, see launchBrowser), where plain HTTP is not a secure context, and over HTTPS with the
// certificate of TLS_CERT/TLS_KEY. Signing in and walking the home page, two CRUD pages and the runtime
// monitor shows no Content-Security-Policy violation, no console error or warning, no failed request and no
// mixed content; the live channels come up (MQTT over ws or wss, /websocket). Over plain HTTP neither an HTTPS
// upgrade nor HSTS is asked for; over HTTPS both are.
import type { Page, Response } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../apps/server/test/support/server-process.ts';
import { selfSignedCertificate } from '../apps/server/test/support/tls.ts';
import { CONSOLE_HOST } from './support/browser.ts';
import { ADMIN_PASSWORD } from './support/console.ts';
import { signIn, useConsoleSuite, waitHomeLoaded } from './support/ui.ts';

/** Everything a page did that an operator's browser would show as a problem. */
interface Problems {
  violations: string[];
  console: string[];
  failedRequests: string[];
  insecure: string[];
  sockets: Map<string, string[]>;
}

const VIOLATION_BINDING = '__reportCspViolation';

/** Listens to everything that can go wrong on `page`, before its first navigation. */
async function watchProblems(page: Page, secure: boolean): Promise<Problems> {
  const problems: Problems = {
    violations: [],
    console: [],
    failedRequests: [],
    insecure: [],
    sockets: new Map(),
  };
  await page.exposeFunction(VIOLATION_BINDING, (violation: string) => problems.violations.push(violation));
  await page.addInitScript((binding) => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as Record<string, (text: string) => void>)[binding];
      report?.(
        `${event.violatedDirective} blocked ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  }, VIOLATION_BINDING);
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      problems.console.push(`${message.type()}: ${message.text()}`);
    }
  });
  page.on('requestfailed', (request) => {
    const error = request.failure()?.errorText ?? 'failed';
    // A request the console itself cancels (leaving a page) is not a failure of the network.
    if (error !== 'net::ERR_ABORTED') problems.failedRequests.push(`${request.url()}: ${error}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400)
      problems.failedRequests.push(`${response.url()}: HTTP ${response.status()}`);
  });
  page.on('request', (request) => {
    if (secure && !request.url().startsWith('https:') && !/^(data|blob):/.test(request.url())) {
      problems.insecure.push(request.url());
    }
  });
  page.on('websocket', (socket) => {
    if (secure && !socket.url().startsWith('wss:')) problems.insecure.push(socket.url());
    const frames: string[] = [];
    problems.sockets.set(socket.url(), frames);
    socket.on('framereceived', (frame) => {
      if (typeof frame.payload === 'string') frames.push(frame.payload);
    });
    socket.on('socketerror', (error) => problems.failedRequests.push(`${socket.url()}: ${error}`));
  });
  return problems;
}

/** The pages walked, each with the element that shows it is ready. */
const WALK = [
  { path: '/sys/role', ready: 'roles-page' },
  { path: '/sys/staff', ready: 'staff-page' },
] as const;

async function liveStatus(page: Page): Promise<string | null> {
  return page.getByTestId('live-status').getAttribute('data-status');
}

/** Signs in, walks the console and checks every part of it arrived as the operator's browser needs. */
async function walkConsole(page: Page, origin: string, secure: boolean): Promise<Response> {
  const problems = await watchProblems(page, secure);
  const first = await page.goto('/login');
  if (!first) throw new Error('no response for /login');
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await waitHomeLoaded(page);
  await expect.poll(() => liveStatus(page), { timeout: 20_000 }).toBe('live');

  for (const step of WALK) {
    await page.goto(step.path);
    await page.getByTestId(step.ready).waitFor();
    await page.waitForLoadState('networkidle');
  }
  // A CRUD dialog opens and closes.
  await page.goto('/sys/role');
  await page.getByTestId('roles-create').click();
  await page.getByTestId('roles-dialog').waitFor();
  await page.keyboard.press('Escape');
  await page.getByTestId('roles-dialog').waitFor({ state: 'hidden' });
  await page.goto('/monitor/runtime');
  await page.getByTestId('monitorRuntime-page').waitFor();
  await expect.poll(() => page.getByTestId('monitor-live').getAttribute('data-state')).toBe('live');
  await expect.poll(() => liveStatus(page)).toBe('live');
  await page.waitForLoadState('networkidle');

  // Both live channels were opened on the console's own host name: the broker's and /websocket.
  const host = new URL(origin).host;
  const socketScheme = secure ? 'wss' : 'ws';
  const urls = [...problems.sockets.keys()];
  expect(urls).toContain(`${socketScheme}://${host}/websocket`);
  expect(
    urls.some((url) => url.startsWith(`${socketScheme}://${CONSOLE_HOST}:`) && url.endsWith('/mqtt')),
  ).toBe(true);
  expect(problems.sockets.get(`${socketScheme}://${host}/websocket`)).toContain('{"type":"ready"}');

  expect(problems.violations).toEqual([]);
  expect(problems.console).toEqual([]);
  expect(problems.failedRequests).toEqual([]);
  expect(problems.insecure).toEqual([]);
  expect(await page.evaluate(() => window.isSecureContext)).toBe(secure);
  return first;
}

describe('over plain HTTP from another machine', () => {
  const { app, browser } = useConsoleSuite();

  it('works whole, with no HTTPS upgrade and no HSTS', async () => {
    expect(new URL(app.url).protocol).toBe('http:');
    expect(new URL(app.url).hostname).toBe(CONSOLE_HOST);
    const { page } = await browser.open(app.url);
    const login = await walkConsole(page, app.url, false);
    const headers = await login.allHeaders();
    expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(headers['strict-transport-security']).toBeUndefined();
  });
});

describe('over HTTPS with TLS_CERT and TLS_KEY', () => {
  const certificates = tempDir('uiot-e2e-tls-');
  const certificate = selfSignedCertificate(certificates.dir);
  const { app, browser } = useConsoleSuite({
    tls: { certFile: certificate.certFile, keyFile: certificate.keyFile },
  });
  afterAll(() => certificates.remove());

  it('works whole over HTTPS and WSS, with HSTS and no mixed content', async () => {
    expect(new URL(app.url).protocol).toBe('https:');
    expect(new URL(app.url).hostname).toBe(CONSOLE_HOST);
    const { page } = await browser.open(app.url, { ignoreHTTPSErrors: true });
    const login = await walkConsole(page, app.url, true);
    const headers = await login.allHeaders();
    expect(headers['content-security-policy']).toContain('upgrade-insecure-requests');
    expect(headers['strict-transport-security']).toBe('max-age=31536000');
  });
});
