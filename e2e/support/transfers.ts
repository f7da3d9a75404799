// What a page received over the network as Chromium counts it, for the page-weight test and benchmark.
import type { BrowserContext, CDPSession, Page } from 'playwright-core';

const QUIET_MS = 600;

export interface Transfer {
  url: string;
  /** Chromium's resource type (Document, Script, Stylesheet, Fetch, ...). */
  type: string;
  /** Bytes received: headers and the body as sent (compressed when it was). */
  bytes: number;
  /** The Content-Encoding it came with; '' when sent as it is. */
  encoding: string;
}

/** Every response of a page (CDP's Network.loadingFinished), and the requests still open. */
export class TransferLog {
  readonly finished: Transfer[] = [];
  /** Requests that got no answer, with Chromium's reason (`https://… net::ERR_…`). */
  readonly failed: string[] = [];
  private readonly open = new Map<string, Omit<Transfer, 'bytes'>>();
  private lastActivity = Date.now();

  private constructor(cdp: CDPSession) {
    cdp.on('Network.requestWillBeSent', (event) => {
      // A worker started from a blob (the MQTT client's timer) is no transfer, and CDP never ends it.
      if (!/^https?:/.test(event.request.url)) return;
      this.open.set(event.requestId, { url: event.request.url, type: event.type ?? 'Other', encoding: '' });
      this.lastActivity = Date.now();
    });
    cdp.on('Network.responseReceived', (event) => {
      const request = this.open.get(event.requestId);
      if (!request) return;
      const header = Object.entries(event.response.headers).find(
        ([name]) => name.toLowerCase() === 'content-encoding',
      );
      request.encoding = header?.[1] ?? '';
    });
    cdp.on('Network.loadingFinished', (event) => {
      const request = this.open.get(event.requestId);
      this.open.delete(event.requestId);
      this.lastActivity = Date.now();
      if (request) this.finished.push({ ...request, bytes: event.encodedDataLength });
    });
    cdp.on('Network.loadingFailed', (event) => {
      const request = this.open.get(event.requestId);
      if (request && !event.canceled) this.failed.push(`${request.url} ${event.errorText}`);
      this.open.delete(event.requestId);
      this.lastActivity = Date.now();
    });
  }

  /** Starts recording what `page` receives; call it before the page loads anything. */
  static async of(context: BrowserContext, page: Page): Promise<TransferLog> {
    const cdp = await context.newCDPSession(page);
    const log = new TransferLog(cdp);
    await cdp.send('Network.enable');
    return log;
  }

  /** Resolves once no request has been open for a while: what the page loads has arrived. */
  async settled(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.open.size > 0 || Date.now() - this.lastActivity < QUIET_MS) {
      if (Date.now() > deadline) {
        throw new Error(`requests still open: ${[...this.open.values()].map((r) => r.url).join(', ')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** What finished since `mark` (a length of `finished` taken before). */
  since(mark: number): Transfer[] {
    return this.finished.slice(mark);
  }
}

export const isScript = (t: Transfer) => t.type === 'Script' || /\.m?js(\?|$)/.test(new URL(t.url).pathname);
export const isStylesheet = (t: Transfer) =>
  t.type === 'Stylesheet' || /\.css$/.test(new URL(t.url).pathname);
/** A file of the build (hashed, under /assets/). */
export const isChunk = (t: Transfer) => new URL(t.url).pathname.startsWith('/assets/');
export const bytesOf = (transfers: readonly Transfer[]) => transfers.reduce((total, t) => total + t.bytes, 0);

/** `/assets/antd-xV-UW3xo.js` → `antd.js`: a chunk's name without its content hash, to compare builds. */
export function chunkName(url: string): string {
  const file = new URL(url).pathname.split('/').pop() ?? url;
  return file.replace(/-[\w-]{8}(\.\w+)$/, '$1');
}
