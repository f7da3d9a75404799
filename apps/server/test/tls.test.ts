// TLS_CERT and TLS_KEY: the whole system serves the API over HTTPS, /websocket over WSS and the embedded
// broker's browser listener over WSS with the same certificate; the devices' TCP listener stays plain.
import { randomUUID } from 'node:crypto';
import { request } from 'node:https';
import path from 'node:path';
import {
  ADMIN_STAFF_ID,
  api,
  consoleSubscription,
  HEART_CHECK,
  NOTIFICATION_SOCKET_PATH,
} from '@uiot/contracts';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEFAULT_STATION } from '../src/lib/station.ts';
import { StartupError } from '../src/system.ts';
import { urlOf } from './support/app.ts';
import { databases, type TestDatabase } from './support/databases.ts';
import { startBusSystem, TEST_ADMIN_PASSWORD } from './support/device-bus.ts';
import { tempDir } from './support/server-process.ts';
import { type SelfSignedCertificate, selfSignedCertificate } from './support/tls.ts';

describe('TLS from TLS_CERT and TLS_KEY', () => {
  const dir = tempDir('uiot-tls-system-');
  let certificate: SelfSignedCertificate;
  let database: TestDatabase;
  let system: Awaited<ReturnType<typeof startBusSystem>> | null = null;
  const clients: MqttClient[] = [];
  const sockets: WebSocket[] = [];

  beforeAll(async () => {
    certificate = selfSignedCertificate(dir.dir);
    database = await databases[0]!.open();
    system = await startBusSystem(database, {
      tls: { certFile: certificate.certFile, keyFile: certificate.keyFile },
    });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.terminate();
    await Promise.all(clients.map((client) => client.endAsync(true).catch(() => undefined)));
    await system?.stop();
    system?.removeDir();
    await database?.close();
    dir.remove();
  });

  /** A call to the API over HTTPS, trusting the test certificate only. */
  function call(
    pathname: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown; headers: Record<string, unknown> }> {
    return new Promise((resolve, reject) => {
      const req = request(
        `${system!.url}${pathname}`,
        {
          method: body === undefined ? 'GET' : 'POST',
          ca: certificate.cert,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              json: JSON.parse(Buffer.concat(chunks).toString()),
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }

  async function adminToken(): Promise<string> {
    const response = await call(urlOf(api.auth.loginCheck), {
      name: ADMIN_STAFF_ID,
      pwd: TEST_ADMIN_PASSWORD,
    });
    return (response.json as { data: { token: string } }).data.token;
  }

  it('serves the API over HTTPS with HSTS, and tells the console to use WSS', async () => {
    expect(system!.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const response = await call('/config.json');
    expect(response.status).toBe(200);
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(response.json).toMatchObject({
      mqttOptions: { ssl: true, port: system!.deviceBus.broker!.wsPort },
    });
  });

  it('answers nothing over plain HTTP on that port', async () => {
    await expect(fetch(system!.url.replace(/^https/, 'http'))).rejects.toThrow();
  });

  it('serves /websocket over WSS', async () => {
    const token = await adminToken();
    const url = `${system!.url.replace(/^https/, 'wss')}${NOTIFICATION_SOCKET_PATH}`;
    const socket = new WebSocket(url, { ca: certificate.cert });
    sockets.push(socket);
    const texts: string[] = [];
    socket.on('message', (data) => texts.push(data.toString()));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.send(JSON.stringify({ type: 'auth', token }));
    await expect.poll(() => texts).toEqual(['{"type":"ready"}']);
    socket.send(HEART_CHECK);
    await expect.poll(() => texts).toEqual(['{"type":"ready"}', HEART_CHECK]);
  });

  it("lets a browser session reach the embedded broker over WSS with the server's certificate", async () => {
    const broker = system!.deviceBus.broker!;
    expect(broker.wsUrl).toBe(`wss://127.0.0.1:${broker.wsPort}/mqtt`);
    const token = await adminToken();
    const browser = await connectAsync(broker.wsUrl, {
      protocolVersion: 4,
      clientId: `console-${randomUUID()}`,
      username: ADMIN_STAFF_ID,
      password: token,
      reconnectPeriod: 0,
      connectTimeout: 5_000,
      ca: certificate.cert,
    });
    clients.push(browser);
    const granted = await browser.subscribeAsync(consoleSubscription(DEFAULT_STATION.id), { qos: 0 });
    expect(granted[0]?.qos).toBe(0);
  });

  it('refuses a plain ws:// connection to the broker', async () => {
    const broker = system!.deviceBus.broker!;
    await expect(
      connectAsync(`ws://127.0.0.1:${broker.wsPort}/mqtt`, {
        protocolVersion: 4,
        reconnectPeriod: 0,
        connectTimeout: 3_000,
      }),
    ).rejects.toThrow();
  });

  it('stops the start with one line naming the variable when a file is missing', async () => {
    const missing = path.join(dir.dir, 'missing.pem');
    const start = startBusSystem(database, { tls: { certFile: missing, keyFile: certificate.keyFile } });
    await expect(start).rejects.toThrow(StartupError);
    await expect(start).rejects.toThrow(`TLS_CERT: cannot read ${missing} (no such file)`);
  });
});
