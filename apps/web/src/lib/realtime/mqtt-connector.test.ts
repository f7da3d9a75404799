import { EventEmitter } from 'node:events';
import { REALTIME_TIMING } from '@uiot/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MqttOptions } from './channel-urls.ts';
import { ManualScheduler } from './manual-scheduler.ts';
import type { BrokerConnectionEvents } from './mqtt-channel.ts';
import { mqttConnector } from './mqtt-connector.ts';

/** An mqtt.js client driven by the test: records each connection attempt and the username it used. */
class FakeClient extends EventEmitter {
  readonly attempts: (string | undefined)[] = [];
  ended = false;

  constructor(readonly options: { username?: string; password?: string; [option: string]: unknown }) {
    super();
  }

  connect(): this {
    this.attempts.push(this.options.username);
    return this;
  }

  reconnect(): this {
    return this.connect();
  }

  end(): this {
    this.ended = true;
    return this;
  }
}

const created = vi.hoisted(() => [] as FakeClient[]);
vi.mock('mqtt', () => ({
  default: {
    connect: (_url: string, options: FakeClient['options']) => {
      const client = new FakeClient(options);
      created.push(client);
      return client;
    },
  },
}));

const OPTIONS: MqttOptions = {
  port: 8083,
  path: '/mqtt',
  keepalive: REALTIME_TIMING.mqttKeepaliveSeconds,
  reconnectPeriod: REALTIME_TIMING.mqttReconnectMs,
  connectTimeout: REALTIME_TIMING.mqttConnectTimeoutMs,
  clean: true,
  ssl: false,
};

/** Lets the promises of the login settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** `held`: the server answers only once the test calls `release()`. */
function setUp(usernames: (string | Error)[], held = false) {
  const scheduler = new ManualScheduler();
  const logins: string[] = [];
  const answers = [...usernames];
  let release = () => {};
  const answered = held ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  const login = vi.fn(async () => {
    await answered;
    const next = answers.shift();
    if (next === undefined || next instanceof Error) throw next ?? new Error('no answer');
    logins.push(next);
    return next;
  });
  const closed = vi.fn();
  const events: BrokerConnectionEvents = { connected: vi.fn(), closed, message: vi.fn() };
  const connect = mqttConnector('ws://console.test:8083/mqtt', OPTIONS, { token: 'tok', login }, scheduler);
  return { scheduler, login, closed, events, connect, release: () => release() };
}

describe('mqttConnector', () => {
  beforeEach(() => {
    created.length = 0;
  });

  it('asks the server for the username before the first attempt, and signs in with it and the token', async () => {
    const { connect, events, login, release } = setUp(['web-abc'], true);
    await connect(events);
    await settle();
    const [client] = created;
    expect(client?.options).toMatchObject({
      password: 'tok',
      protocolVersion: 4,
      manualConnect: true,
      reconnectOnConnackError: false,
    });
    expect(login).toHaveBeenCalledTimes(1);
    expect(client?.attempts).toEqual([]);
    release();
    await settle();
    expect(client?.attempts).toEqual(['web-abc']);
  });

  it('asks again after the broker refused the sign-in, and only then attempts again', async () => {
    const { connect, events, login, scheduler } = setUp(['web-abc', 'web-abc']);
    await connect(events);
    await settle();
    const client = created[0]!;
    client.emit('error', Object.assign(new Error('Connection refused: Not authorized'), { code: 5 }));
    scheduler.advance(OPTIONS.reconnectPeriod - 1);
    expect(login).toHaveBeenCalledTimes(1);
    scheduler.advance(1);
    expect(login).toHaveBeenCalledTimes(2);
    expect(client.attempts).toEqual(['web-abc']);
    await settle();
    expect(client.attempts).toEqual(['web-abc', 'web-abc']);
  });

  it('retries another refusal without asking, and leaves a lost connection to the client', async () => {
    const { connect, events, login, scheduler } = setUp(['web-abc']);
    await connect(events);
    await settle();
    const client = created[0]!;
    client.emit('error', Object.assign(new Error('Connection refused: Server unavailable'), { code: 3 }));
    scheduler.advance(OPTIONS.reconnectPeriod);
    expect(client.attempts).toEqual(['web-abc', 'web-abc']);
    client.emit('error', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    scheduler.advance(OPTIONS.reconnectPeriod * 3);
    expect(scheduler.delays()).toEqual([]);
    expect(login).toHaveBeenCalledTimes(1);
    expect(client.attempts).toEqual(['web-abc', 'web-abc']);
  });

  it('asks again later when the server could not answer, reporting the channel down meanwhile', async () => {
    const { connect, events, login, closed, scheduler } = setUp([new Error('offline'), 'admin']);
    await connect(events);
    await settle();
    expect(closed).toHaveBeenCalledTimes(1);
    expect(created[0]?.attempts).toEqual([]);
    scheduler.advance(OPTIONS.reconnectPeriod);
    await settle();
    expect(login).toHaveBeenCalledTimes(2);
    expect(created[0]?.attempts).toEqual(['admin']);
  });

  it('attempts nothing more once ended, even when the answer comes after', async () => {
    const { connect, events, scheduler, release } = setUp(['web-abc'], true);
    const connection = await connect(events);
    connection.end();
    release();
    await settle();
    expect(created[0]?.attempts).toEqual([]);
    expect(created[0]?.ended).toBe(false);

    const second = setUp(['web-def']);
    const running = await second.connect(second.events);
    await settle();
    created[1]!.emit('error', Object.assign(new Error('refused'), { code: 5 }));
    running.end();
    second.scheduler.advance(OPTIONS.reconnectPeriod);
    await settle();
    expect(second.login).toHaveBeenCalledTimes(1);
    expect(created[1]?.ended).toBe(true);
    expect(scheduler.delays()).toEqual([]);
  });
});
