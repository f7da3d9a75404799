import { randomBytes, randomUUID } from 'node:crypto';
import {
  api,
  consoleSubscription,
  type Endpoint,
  type EndpointBody,
  type EndpointResult,
  type Envelope,
  NOTIFICATION_SOCKET_PATH,
  ResultCode,
} from '@uiot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { hashPassword } from '../src/lib/password-hash.ts';
import { DEFAULT_STATION } from '../src/lib/station.ts';
import { staff } from '../src/modules/org/org.schema.ts';
import { param } from '../src/modules/params/params.schema.ts';
import { SOCKET_CLOSE } from '../src/modules/realtime/notification-socket.ts';
import type { RunningSystem } from '../src/system.ts';
import { urlOf } from './support/app.ts';
import { databases, type TestDatabase } from './support/databases.ts';
import { mqttClient, startBusSystem } from './support/device-bus.ts';

const PASSWORD = 'Initial-Pass-123';
const NEW_PASSWORD = 'Changed-Pass-475';

/** The first answer of `/websocket` to an auth message: ready, or the close code. */
function socketAnswer(url: string, token: string): Promise<{ ready: boolean; code?: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ type: 'auth', token })));
    ws.once('message', (data) => {
      ws.terminate();
      resolve({ ready: JSON.parse(data.toString()).type === 'ready' });
    });
    ws.once('close', (code) => resolve({ ready: false, code }));
  });
}

// The rule of spec §4 Login: with ChangePwdByFirstLogin on, a user who still has the initial password reaches
// nothing but the change itself, the sign-out, getUserInfo and the feature flags until the password is changed
// (every HTTP endpoint: apps/server/test/authorization-matrix.test.ts). The live channels are held back too.
describe.each(databases)('rule: forced first-sign-in password change, live channels ($kind)', ({ open }) => {
  let database: TestDatabase;
  let system: (RunningSystem & { removeDir(): void }) | null = null;

  beforeAll(async () => {
    database = await open();
    system = await startBusSystem(database);
    await database.db.update(param).set({ val: 'true' }).where(eq(param.name, 'ChangePwdByFirstLogin'));
  });
  afterAll(async () => {
    await system?.stop();
    system?.removeDir();
    await database?.close();
  });

  async function request<E extends Endpoint>(endpoint: E, token: string | null, body?: EndpointBody<E>) {
    const response = await fetch(`${system!.url}${urlOf(endpoint)}`, {
      method: endpoint.method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Envelope<EndpointResult<E>> };
  }

  const brokerLogin = (id: string, token: string) =>
    mqttClient(system!.deviceBus.broker!.wsUrl, id, token, `console-${randomUUID()}`);

  it('gives a held user neither the broker nor /websocket, and both once the password is changed', async () => {
    const name = `held_${randomBytes(4).toString('hex')}`;
    const [row] = await database.db
      .insert(staff)
      .values({
        name,
        passwordHash: await hashPassword(PASSWORD),
        status: 'activated',
        mustChangePassword: true,
      })
      .returning({ id: staff.id });
    const id = row!.id;
    const token = (await request(api.auth.loginCheck, null, { name, pwd: PASSWORD })).body.data.token;
    const socketUrl = `${system!.url.replace(/^http/, 'ws')}${NOTIFICATION_SOCKET_PATH}`;

    const refusedLogin = await request(api.realtime.getBrokerLogin, token);
    expect({ status: refusedLogin.status, code: refusedLogin.body.code }).toEqual({
      status: 403,
      code: ResultCode.PasswordChangeRequired,
    });
    await expect(brokerLogin(id, token)).rejects.toThrow(/Connection refused/);
    expect(await socketAnswer(socketUrl, token)).toEqual({ ready: false, code: SOCKET_CLOSE.unauthorized });

    const changed = await request(api.auth.changePwd, token, {
      oldPwd: PASSWORD,
      newPwd: NEW_PASSWORD,
      confirmPwd: NEW_PASSWORD,
    });
    expect(changed.body.code).toBe(ResultCode.Ok);

    expect((await request(api.realtime.getBrokerLogin, token)).body.code).toBe(ResultCode.Ok);
    const client = await brokerLogin(id, token);
    try {
      const granted = await client.subscribeAsync(consoleSubscription(DEFAULT_STATION.id), { qos: 0 });
      expect(granted[0]?.qos).toBe(0);
    } finally {
      await client.endAsync(true);
    }
    expect(await socketAnswer(socketUrl, token)).toEqual({ ready: true });
  });
});
