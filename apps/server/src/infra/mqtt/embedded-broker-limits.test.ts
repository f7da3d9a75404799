import { createServer, type Server, type Socket } from 'node:net';
import { connectAsync } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { childPids, freePorts, recordingLogger, tcpAnswers } from '../../lib/test-support.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from './embedded-broker.ts';

const never = () => new Promise<null>(() => {});

describe('embedded broker start-up failures and limits', () => {
  const servers: Server[] = [];
  const brokers: EmbeddedBroker[] = [];
  const sockets: Socket[] = [];

  async function occupy(port: number): Promise<void> {
    const server = createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  }

  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await Promise.all(brokers.splice(0).map((b) => b.stop()));
    await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  });

  it('fails with a message naming MQTT_PORT when the TCP port is taken, leaving no process behind', async () => {
    const [port, wsPort] = await freePorts(2);
    await occupy(port!);
    const { logger } = recordingLogger();
    const start = startEmbeddedBroker({
      host: '127.0.0.1',
      port: port!,
      wsPort: wsPort!,
      authorize: never,
      logger,
    });
    await expect(start).rejects.toThrow(`MQTT_PORT ${port} is already in use`);
    await expect(start).rejects.toMatchObject({ code: 'EADDRINUSE', variable: 'MQTT_PORT', port });
    expect(childPids()).toEqual([]);
    expect(await tcpAnswers(wsPort!)).toBe(false);
  });

  it('fails with a message naming MQTT_WS_PORT when the WebSocket port is taken, releasing the TCP port', async () => {
    const [port, wsPort] = await freePorts(2);
    await occupy(wsPort!);
    const { logger } = recordingLogger();
    const start = startEmbeddedBroker({
      host: '127.0.0.1',
      port: port!,
      wsPort: wsPort!,
      authorize: never,
      logger,
    });
    await expect(start).rejects.toThrow(`MQTT_WS_PORT ${wsPort} is already in use`);
    expect(childPids()).toEqual([]);
    expect(await tcpAnswers(port!)).toBe(false);
  });

  it('rejects equal ports before starting anything', async () => {
    const { logger } = recordingLogger();
    await expect(
      startEmbeddedBroker({ port: 18_830, wsPort: 18_830, authorize: never, logger }),
    ).rejects.toThrow(/MQTT_PORT and MQTT_WS_PORT must differ/);
  });

  it('bounds concurrent connections over both listeners', async () => {
    const { logger, lines } = recordingLogger();
    const broker = await startEmbeddedBroker({
      host: '127.0.0.1',
      port: 0,
      wsPort: 0,
      authorize: never,
      logger,
      maxConnections: 2,
    });
    brokers.push(broker);
    const { createConnection } = await import('node:net');
    const open = async () => {
      const socket = createConnection({ port: broker.port, host: '127.0.0.1' });
      sockets.push(socket);
      socket.on('error', () => {});
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      return socket;
    };
    await open();
    await open();
    const third = await open();
    await new Promise<void>((resolve) => third.once('close', () => resolve()));

    // the WebSocket listener shares the budget: refused with 503
    await expect(
      connectAsync(broker.wsUrl, { protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 3_000 }, false),
    ).rejects.toThrow();
    expect(lines.some((l) => /connection limit reached/.test(l.msg ?? ''))).toBe(true);
  });

  it('denies a connection when the server does not answer in time', async () => {
    const { logger } = recordingLogger();
    const broker = await startEmbeddedBroker({
      host: '127.0.0.1',
      port: 0,
      wsPort: 0,
      authorize: never,
      logger,
      authTimeoutMs: 300,
    });
    brokers.push(broker);
    const started = Date.now();
    await expect(
      connectAsync(
        broker.url,
        { protocolVersion: 4, username: 'u', password: 'p', reconnectPeriod: 0, connectTimeout: 5_000 },
        false,
      ),
    ).rejects.toThrow(/Server unavailable/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('stops cleanly while a restart is pending', async () => {
    const { logger } = recordingLogger();
    const broker = await startEmbeddedBroker({
      host: '127.0.0.1',
      port: 0,
      wsPort: 0,
      authorize: never,
      logger,
    });
    process.kill(broker.pid!, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await broker.stop();
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // past the restart back-off
    expect(childPids()).toEqual([]);
    expect(broker.pid).toBeUndefined();
  });
});
