import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request one of the stand-in NB-IoT platforms received. */
export interface PlatformRequestSeen {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type PlatformReply = { status: number; body: unknown };

export interface NbPlatformsStandIn {
  /** `http://127.0.0.1:<port>`; each carrier under its own prefix (`/ctwing`, `/unicom`, `/onenet`). */
  url: string;
  received: PlatformRequestSeen[];
  /** The next request whose path starts with `prefix` gets `reply` instead of the platform's usual answer. */
  replyNext(prefix: string, reply: PlatformReply): void;
  close(): Promise<void>;
}

/**
 * A local HTTP server answering as the carriers' command APIs do (docs/device-protocol.md, NB-IoT downlinks):
 * CTWing AEP's CreateCommand, OceanConnect's login and device commands, OneNET's cached write. Command ids
 * count up per carrier.
 */
export async function startNbPlatforms(): Promise<NbPlatformsStandIn> {
  const received: PlatformRequestSeen[] = [];
  const overrides: Array<{ prefix: string; reply: PlatformReply }> = [];
  let next = 0;
  const usual = (path: string): PlatformReply => {
    next++;
    if (path === '/ctwing/aep_device_command/command') {
      return {
        status: 200,
        body: { code: 0, msg: 'ok', result: { commandId: String(600 + next), commandStatus: '指令已保存' } },
      };
    }
    if (path === '/unicom/iocm/app/sec/v1.1.0/login') {
      return {
        status: 200,
        body: {
          accessToken: `token-${next}`,
          tokenType: 'bearer',
          refreshToken: 'r',
          expiresIn: 3600,
          scope: 'default',
        },
      };
    }
    if (path === '/unicom/iocm/app/cmd/v1.4.0/deviceCommands') {
      return { status: 201, body: { commandId: `unicom-cmd-${next}`, appId: 'x', status: 'PENDING' } };
    }
    if (path === '/onenet/nbiot/offline') {
      return { status: 200, body: { errno: 0, error: 'succ', data: { uuid: `onenet-uuid-${next}` } } };
    }
    return { status: 404, body: { error: 'not found' } };
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = req.url ?? '/';
      const path = url.split('?')[0] ?? '/';
      received.push({
        method: req.method ?? 'GET',
        url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const at = overrides.findIndex((o) => path.startsWith(o.prefix));
      const reply = at >= 0 ? overrides.splice(at, 1)[0]!.reply : usual(path);
      res.writeHead(reply.status, { 'content-type': 'application/json;charset=UTF-8' });
      res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    replyNext: (prefix, reply) => overrides.push({ prefix, reply }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
