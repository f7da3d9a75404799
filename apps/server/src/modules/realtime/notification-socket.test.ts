import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HEART_CHECK, Permission } from '@uiot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { recordingLogger, waitFor } from '../../lib/test-support.ts';
import { inProcessChannel } from './notification-channel.ts';
import { NotificationHub } from './notification-hub.ts';
import { attachNotificationSocket, type NotificationSocket, SOCKET_CLOSE } from './notification-socket.ts';

/** Tokens that sign in, by token: the staff id and token hash they stand for. */
const SESSIONS = new Map([
  ['token-a', { staffId: 'a', tokenHash: 'hash-a', mustChangePassword: false }],
  ['token-b', { staffId: 'b', tokenHash: 'hash-b', mustChangePassword: false }],
]);

describe('notification socket protocol', () => {
  let server: Server;
  let socket: NotificationSocket;
  let url: string;
  const standing = new Set(['hash-a', 'hash-b']);
  const clients: WebSocket[] = [];

  beforeAll(async () => {
    server = createServer((_req, res) => res.end());
    const log = recordingLogger();
    const hub = new NotificationHub({
      channel: inProcessChannel(),
      sessionStands: async (hash) => standing.has(hash),
      permissionsOf: async (hash) => (standing.has(hash) ? new Set([Permission.DeviceCommandRead]) : null),
      logger: log.logger,
    });
    socket = attachNotificationSocket({
      server,
      hub,
      resolveSession: async (token) => SESSIONS.get(token) ?? null,
      logger: log.logger,
      authTimeoutMs: 300,
      silenceMs: 400,
      recheckMs: 0,
      maxPayload: 256,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/websocket`;
  });

  afterAll(async () => {
    for (const c of clients) c.terminate();
    await socket.close();
    await new Promise((resolve) => server.close(resolve));
  });

  async function connect(token?: string) {
    const ws = new WebSocket(url);
    clients.push(ws);
    const texts: string[] = [];
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.on('message', (data) => texts.push(data.toString()));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    if (token) {
      ws.send(JSON.stringify({ type: 'auth', token }));
      await waitFor(() => texts.length > 0, 2_000, 'ready');
    }
    return { ws, texts, closed };
  }

  it('answers ready, then heartCheck with heartCheck while the session stands', async () => {
    const client = await connect('token-a');
    expect(client.texts).toEqual(['{"type":"ready"}']);
    client.ws.send(HEART_CHECK);
    await waitFor(() => client.texts.length === 2, 2_000, 'heartCheck');
    expect(client.texts[1]).toBe(HEART_CHECK);
    client.ws.close();
  });

  it('closes at the next heartbeat once the session no longer stands', async () => {
    const client = await connect('token-b');
    standing.delete('hash-b');
    client.ws.send(HEART_CHECK);
    expect(await client.closed).toBe(SOCKET_CLOSE.unauthorized);
    expect(client.texts).toEqual(['{"type":"ready"}']);
    standing.add('hash-b');
  });

  it('closes a connection that falls silent', async () => {
    const client = await connect('token-a');
    const started = Date.now();
    expect(await client.closed).toBe(SOCKET_CLOSE.timeout);
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
  });

  it('closes a connection that sends no auth message in time, or a malformed one', async () => {
    const silent = await connect();
    expect(await silent.closed).toBe(SOCKET_CLOSE.timeout);
    const malformed = await connect();
    malformed.ws.send('{"type":"auth"}');
    expect(await malformed.closed).toBe(SOCKET_CLOSE.unauthorized);
  });

  it('closes on a binary message and on a message larger than allowed', async () => {
    const binary = await connect('token-a');
    binary.ws.send(Buffer.from([1, 2, 3]));
    expect(await binary.closed).toBe(SOCKET_CLOSE.unsupported);
    const large = await connect();
    large.ws.send(JSON.stringify({ type: 'auth', token: 'x'.repeat(300) }));
    expect(await large.closed).toBe(1009);
  });

  it('closes its connections when it stops', async () => {
    const client = await connect('token-a');
    expect(socket.connections).toBeGreaterThanOrEqual(1);
    await socket.close();
    expect(await client.closed).toBe(SOCKET_CLOSE.goingAway);
    await expect(connect()).rejects.toThrow(/404|503|Unexpected server response/);
  });
});
