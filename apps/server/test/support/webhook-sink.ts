import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a webhook received. */
export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The status it was answered with. */
  status: number;
}

export interface WebhookSink {
  /** `http://127.0.0.1:<port>` */
  url: string;
  received: ReceivedHook[];
  /** The next `count` requests are answered with `status` (then 200 again). */
  failNext(count: number, status: number): void;
  /** Waits until `count` requests to `path` have come in; resolves with them. */
  requestsTo(path: string, count: number, timeoutMs?: number): Promise<ReceivedHook[]>;
  close(): Promise<void>;
}

/** A local HTTP server standing in for an SMS gateway or a push service: it keeps every request. */
export async function startWebhookSink(): Promise<WebhookSink> {
  const received: ReceivedHook[] = [];
  let failing = 0;
  let failStatus = 500;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const status = failing > 0 ? failStatus : 200;
      if (failing > 0) failing--;
      received.push({
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        status,
      });
      res.writeHead(status, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    failNext(count, status) {
      failing = count;
      failStatus = status;
    },
    async requestsTo(path, count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.filter((r) => r.path === path);
        if (found.length >= count) return found;
        if (Date.now() > deadline)
          throw new Error(`${found.length} of ${count} requests to ${path} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
