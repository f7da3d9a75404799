// Page weight of the console as a browser receives it: the real server (`npm start`'s entry) serving the
// built console, Debian's Chromium reaching it by a host name as an operator's browser would. Measures the
// bytes transferred (encoded body + headers, as Chromium counts them) for the login page, then signs in
// and visits every page of the menu catalogue, recording for each the code chunks it loaded beyond those
// already loaded. Prints one line of JSON at the end; progress on stderr.
import { ADMIN_STAFF_ID, flattenMenus, MENU_CATALOGUE } from '@uiot/contracts';
import { chromium, type Page } from 'playwright-core';
import { ADMIN_PASSWORD, startConsole } from '../e2e/support/console.ts';
import {
  bytesOf,
  chunkName,
  isChunk,
  isScript,
  isStylesheet,
  type Transfer,
  TransferLog,
} from '../e2e/support/transfers.ts';

const HOST = 'console.test';
const STEP_TIMEOUT_MS = 60_000;

const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;

function chunkList(transfers: Transfer[]): { chunk: string; kb: number; encoding: string }[] {
  return transfers
    .filter(isChunk)
    .sort((a, b) => b.bytes - a.bytes)
    .map((t) => ({ chunk: chunkName(t.url), kb: kb(t.bytes), encoding: t.encoding || 'identity' }));
}

/** A client-side navigation, as a click on a sidebar link does it (no reload: loaded chunks stay). */
async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((target) => {
    window.history.pushState(null, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

const app = await startConsole();
const port = new URL(app.url).port;
const base = `http://${HOST}:${port}`;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    `--host-resolver-rules=MAP ${HOST} 127.0.0.1`,
  ],
});

try {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'zh-CN' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const log = await TransferLog.of(context, page);

  process.stderr.write(`login page at ${base}/login\n`);
  await page.goto(`${base}/login`, { timeout: STEP_TIMEOUT_MS });
  await page
    .getByTestId('login-form')
    .waitFor({ timeout: STEP_TIMEOUT_MS })
    .catch((error: unknown) => {
      throw new Error(`no login page: ${log.failed.join('; ') || String(error)}`);
    });
  await log.settled(STEP_TIMEOUT_MS);
  const loginTransfers = log.since(0);
  const login = {
    jsKb: kb(bytesOf(loginTransfers.filter(isScript))),
    cssKb: kb(bytesOf(loginTransfers.filter(isStylesheet))),
    totalKb: kb(bytesOf(loginTransfers)),
    requests: loginTransfers.length,
    chunks: chunkList(loginTransfers),
  };

  process.stderr.write('signing in\n');
  let mark = log.finished.length;
  await page.getByTestId('login-username').fill(ADMIN_STAFF_ID);
  await page.getByTestId('login-password').fill(ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('page-content').waitFor({ timeout: STEP_TIMEOUT_MS });
  await log.settled(STEP_TIMEOUT_MS);
  const signInTransfers = log.since(mark).filter(isChunk);
  const signIn = { kb: kb(bytesOf(signInTransfers)), chunks: chunkList(signInTransfers) };

  const pages = flattenMenus(MENU_CATALOGUE).filter((entry) => !entry.children && !entry.external);
  const routes: { path: string; kb: number; chunks: string[] }[] = [];
  for (const entry of pages) {
    process.stderr.write(`route ${entry.path}\n`);
    mark = log.finished.length;
    await navigateInApp(page, entry.path);
    await page.waitForURL((url) => url.pathname === entry.path, { timeout: STEP_TIMEOUT_MS });
    await page.getByTestId('page-content').waitFor({ timeout: STEP_TIMEOUT_MS });
    await log.settled(STEP_TIMEOUT_MS);
    const chunks = log.since(mark).filter(isChunk);
    routes.push({ path: entry.path, kb: kb(bytesOf(chunks)), chunks: chunks.map((t) => chunkName(t.url)) });
  }
  const allChunks = log.finished.filter(isChunk);
  if (errors.length > 0) throw new Error(`the page threw: ${errors.join('; ')}`);

  console.info(
    JSON.stringify({
      bench: 'bundle',
      login,
      signIn,
      routes,
      allChunksKb: kb(bytesOf(allChunks)),
      encodings: [...new Set(allChunks.map((t) => t.encoding || 'identity'))].sort(),
    }),
  );
} finally {
  await browser.close();
  await app.stop();
}
