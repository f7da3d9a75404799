import type { Server as HttpServer } from 'node:http';
import type { AddressInfo, Server as TcpServer } from 'node:net';
import { Aedes } from 'aedes';
import { AuthGateway, userKeyOf } from './broker-auth-gateway.ts';
import { log, send } from './broker-child-ipc.ts';
import { BrokerClients } from './broker-clients.ts';
import { brokerHooks } from './broker-hooks.ts';
import type {
  BrokerConfigMessage,
  BrokerPortVariable,
  ConsoleScope,
  ParentToBrokerMessage,
} from './broker-ipc.ts';
import { brokerListeners, WS_PATH } from './broker-listeners.ts';
import { deliveryEmitter } from './delivery-emitter.ts';
import { PublishAdmission } from './publish-admission.ts';
import { parseBrokerIdentity } from './topic-acl.ts';

const CONFIG_TIMEOUT_MS = 15_000;
const SHUTDOWN_GRACE_MS = 5_000;

// ---------------------------------------------------------------------------------------------------------
// The broker: who may do what (broker-hooks.ts), who holds each connection (broker-clients.ts), the
// listeners (broker-listeners.ts); here they are put together, started and stopped.

interface RunningBroker {
  shutdown(exitCode: number): Promise<void>;
  revoke(username: string): void;
  refreshConsoles(scope: ConsoleScope): void;
  answer(id: number, ok: boolean, identity: unknown, error: boolean | undefined): void;
  answerRecheck(id: number, identity: unknown, error: boolean | undefined): void;
}

async function startBroker(config: BrokerConfigMessage): Promise<RunningBroker> {
  const gateway = new AuthGateway(config);
  const clients = new BrokerClients(config);
  const { consoles } = clients;
  let admission: PublishAdmission | null = null;
  const broker = await Aedes.createBroker({
    ...brokerHooks(config, gateway, clients, () => admission),
    // aedes' own default concurrency (100), with a queue that does not unwind on the stack.
    mq: deliveryEmitter({ concurrency: 100 }),
  });
  admission = publishAdmissionOf(broker);
  const { tcpServer, httpServer, wss, sockets } = brokerListeners(config, broker, clients);

  function listen(server: TcpServer | HttpServer, port: number, which: BrokerPortVariable): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) => {
        reject(Object.assign(error, { which, port }));
      };
      server.once('error', onError);
      server.listen({ port, host: config.host }, () => {
        server.off('error', onError);
        server.on('error', (error: Error) => log('error', 'listener error', { which, error: error.message }));
        resolve((server.address() as AddressInfo).port);
      });
    });
  }

  broker.on('clientError', (client, error) => {
    log('info', 'client error', { clientId: client?.id, error: error.message });
  });
  broker.on('connectionError', (client, error) => {
    log('info', 'connection error', { clientId: client?.id, error: error.message });
  });

  let closing: Promise<void> | null = null;
  function closeAll(): Promise<void> {
    closing ??= (async () => {
      tcpServer.close();
      httpServer.close();
      gateway.clear();
      consoles.clear();
      admission?.releaseAll();
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      httpServer.closeAllConnections();
    })();
    return closing;
  }

  let tcpPort: number;
  let wsPort: number;
  try {
    tcpPort = await listen(tcpServer, config.port, 'MQTT_PORT');
    wsPort = await listen(httpServer, config.wsPort, 'MQTT_WS_PORT');
  } catch (error) {
    await closeAll();
    throw error;
  }
  log('info', 'listening', { host: config.host ?? '(all interfaces)', port: tcpPort, wsPort, path: WS_PATH });
  send({ type: 'ready', port: tcpPort, wsPort });

  return {
    async shutdown(exitCode: number) {
      await closeAll();
      process.exit(exitCode);
    },
    revoke(username: string) {
      const userKey = userKeyOf(username);
      gateway.forgetUser(userKey);
      clients.closeUser(userKey);
    },
    refreshConsoles(scope: ConsoleScope) {
      gateway.forgetConsoles(scope);
      consoles.refresh(scope);
    },
    answer(id, ok, identity, error) {
      gateway.answer(id, ok, identity, error);
    },
    answerRecheck(id, identity, error) {
      const parsed = error ? null : parseBrokerIdentity(identity);
      if (!error && identity != null && !parsed) {
        log('error', 'the server returned an invalid broker identity; connections closed');
      }
      consoles.answer(id, parsed, error === true);
    },
  };
}

/** Device publishes enter aedes' delivery only while its queue is short (see publish-admission.ts). */
const ADMIT_BELOW = 2000;
const RELEASE_BELOW = 1000;

function publishAdmissionOf(broker: Aedes): PublishAdmission | null {
  const queue = (broker as unknown as { mq?: { length?: unknown } }).mq;
  if (!queue || typeof queue.length !== 'number') {
    log('warn', 'cannot read the delivery queue of this aedes version; device publishes are not paced');
    return null;
  }
  return new PublishAdmission(queue as { length: number }, {
    high: ADMIT_BELOW,
    low: RELEASE_BELOW,
    schedule: (check) => setImmediate(check),
  });
}

// ---------------------------------------------------------------------------------------------------------
// Process lifecycle

let running: RunningBroker | null = null;
let starting = false;
let stopping = false;

function stop(exitCode: number): void {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(exitCode), SHUTDOWN_GRACE_MS).unref();
  if (running) void running.shutdown(exitCode);
  else if (!starting) process.exit(exitCode);
  // else: startBroker() is still running; it sees `stopping` when it settles.
}

function isConfig(message: ParentToBrokerMessage): message is BrokerConfigMessage {
  return message.type === 'config' && Number.isInteger(message.port) && Number.isInteger(message.wsPort);
}

if (!process.send) {
  console.error('broker-process.ts must be started by embedded-broker.ts (child_process.fork with IPC)');
  process.exit(1);
}

const configTimer = setTimeout(() => {
  console.error('embedded MQTT broker: no configuration received from the server');
  process.exit(1);
}, CONFIG_TIMEOUT_MS);

process.on('message', (raw: unknown) => {
  const message = raw as ParentToBrokerMessage | null;
  switch (message?.type) {
    case 'config':
      if (running || starting || stopping) return;
      if (!isConfig(message)) {
        send({ type: 'error', code: 'EINVAL', message: 'invalid broker configuration' }, () =>
          process.exit(1),
        );
        return;
      }
      clearTimeout(configTimer);
      starting = true;
      startBroker(message).then(
        (broker) => {
          starting = false;
          running = broker;
          if (stopping) void broker.shutdown(0);
        },
        (error: NodeJS.ErrnoException & { which?: BrokerPortVariable; port?: number }) => {
          starting = false;
          const exitCode = stopping ? 0 : 1;
          send(
            {
              type: 'error',
              code: error.code ?? 'EUNKNOWN',
              message: error.message,
              ...(error.port !== undefined ? { port: error.port } : {}),
              ...(error.which ? { which: error.which } : {}),
            },
            () => process.exit(exitCode),
          );
        },
      );
      return;
    case 'authResult':
      running?.answer(message.id, message.ok, message.identity, message.error);
      return;
    case 'revoke':
      if (typeof message.username === 'string') running?.revoke(message.username);
      return;
    case 'refreshConsoles':
      running?.refreshConsoles({
        ...(typeof message.username === 'string' ? { username: message.username } : {}),
        ...(typeof message.session === 'string' ? { session: message.session } : {}),
      });
      return;
    case 'recheckResult':
      running?.answerRecheck(message.id, message.identity, message.error);
      return;
    case 'stop':
      stop(0);
      return;
    default:
      return;
  }
});

// The parent went away (crashed or exited without stopping us): nobody is left to answer auth requests.
process.on('disconnect', () => stop(0));
process.on('SIGTERM', () => stop(0));
// Ctrl-C reaches the whole process group: the server decides when the broker stops, not the terminal.
process.on('SIGINT', () => {});
process.on('uncaughtException', (error) => {
  console.error('embedded MQTT broker crashed:', error);
  process.exit(1);
});
