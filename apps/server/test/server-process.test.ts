import { createServer, type Server } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/lib/test-support.ts';
import { spawnServer, tempDir, waitReady } from './support/server-process.ts';

const ADMIN_PASSWORD = 'Durable-Admin-2026';

async function ports() {
  return {
    PORT: String(await freePort()),
    MQTT_PORT: String(await freePort()),
    MQTT_WS_PORT: String(await freePort()),
    TCP_DIRECT_PORT: String(await freePort()),
  };
}

async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/api/staff/loginCheck`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'admin', pwd: ADMIN_PASSWORD }),
  });
  const body = (await response.json()) as { success: boolean; data: { token: string } };
  expect(body.success).toBe(true);
  return body.data.token;
}

async function userInfoStatus(url: string, token: string): Promise<number> {
  const response = await fetch(`${url}/api/staff/getUserInfo`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return response.status;
}

describe('the server process on the embedded profile', () => {
  const data = tempDir('uiot-process-');
  afterAll(() => data.remove());

  it('keeps committed data when killed with SIGKILL, and stops cleanly on SIGTERM', async () => {
    const env = { ...(await ports()), DATA_DIR: data.dir, ADMIN_PASSWORD };
    const first = spawnServer(env);
    await waitReady(first);
    // Signing in commits a session row and a login-log row.
    const token = await signIn(first.url);
    expect(await userInfoStatus(first.url, token)).toBe(200);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = spawnServer(env);
    await waitReady(second);
    expect(await userInfoStatus(second.url, token)).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('stops with one line naming the variable when a port is taken', async () => {
    const env = await ports();
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(Number(env.PORT), '127.0.0.1', resolve));
    const dir = tempDir('uiot-port-');
    try {
      const server = spawnServer({ ...env, DATA_DIR: dir.dir, ADMIN_PASSWORD });
      expect(await server.exited).toBe(1);
      expect(server.output()).toContain(`PORT ${env.PORT} is already in use`);
    } finally {
      blocker.close();
      dir.remove();
    }
  });

  it('stops with one line naming TCP_DIRECT_PORT when the TcpDirect port is taken', async () => {
    const env = await ports();
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(Number(env.TCP_DIRECT_PORT), '127.0.0.1', resolve));
    const dir = tempDir('uiot-port-');
    try {
      const server = spawnServer({ ...env, DATA_DIR: dir.dir, ADMIN_PASSWORD });
      expect(await server.exited).toBe(1);
      expect(server.output()).toContain(`TCP_DIRECT_PORT ${env.TCP_DIRECT_PORT} is already in use`);
    } finally {
      blocker.close();
      dir.remove();
    }
  });

  it('stops with one line naming the variable when a value is bad', async () => {
    const server = spawnServer({ PORT: 'eighty', DATA_DIR: '/nonexistent' });
    expect(await server.exited).toBe(1);
    expect(server.output().trim()).toMatch(/^Configuration error: PORT /);
  });
});
