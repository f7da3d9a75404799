import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { RouteBinding } from './http/endpoints.ts';
import type { EventBus } from './infra/events/event-bus.ts';
import type { MosquittoDynsecAccess } from './infra/mqtt/dynsec.ts';
import type { EmbeddedBroker } from './infra/mqtt/embedded-broker.ts';
import type { ModuleLogger } from './lib/module-logger.ts';
import type { holdDeviceTypes } from './modules/devices/index.ts';
import type { TcpDirectListener } from './modules/iot/index.ts';
import type {
  ConsoleAccounts,
  ConsoleBrokerLogins,
  ConsoleEventFeed,
  NotificationHub,
} from './modules/realtime/index.ts';
import type { ServiceConfig, ServiceOptions, Services } from './services.ts';

/**
 * What modules hand each other while they are built besides their services: functions one module lends
 * another without either importing the other (the org module asks the devices module which device types
 * are in use before a station is deleted).
 */
export interface ModulePorts {
  holdDeviceTypes: typeof holdDeviceTypes;
}

/** Everything modules can be built with: the services and ports of the modules built before them. */
export type Built = Services & ModulePorts;

/** What every module is built with. */
export interface BuildContext {
  db: Db;
  config: ServiceConfig;
  options: ServiceOptions;
  events: EventBus;
}

/** What a module's routes may use besides the services. */
export interface RouteDeps {
  database: Pick<Database, 'ping'>;
  busConnected: () => boolean;
  /** How browsers and boards sign in to the broker (staffBrokerLogins unless the server keeps accounts). */
  brokerLogins: ConsoleBrokerLogins;
}

/** What a module's background jobs are started with, once the system runs. */
export interface JobContext {
  services: Services;
  db: Db;
  config: Pick<Config, 'historyRetentionDays'>;
  logger: (module: string) => ModuleLogger;
}

/**
 * The running parts of a started system that modules' `follow` subscriptions act on. `startSystem` starts
 * them, hands them to every module, and only then lets devices in, so no report passes unseen.
 */
export interface Runtime {
  /** Per-user notification sockets of this instance. */
  notifications: NotificationHub;
  /** What goes out on the console topics. */
  consoleEvents: ConsoleEventFeed;
  /** The embedded broker; null when MQTT_URL names one. */
  broker: EmbeddedBroker | null;
  /** Locks connected over TcpDirect (not accepting yet when `follow` runs). */
  tcpDirect: Pick<TcpDirectListener, 'disconnect'>;
  /** Accounts the server keeps on an external Mosquitto (MQTT_DEVICE_AUTH=dynsec); null otherwise. */
  brokerAccounts: { devices: MosquittoDynsecAccess; consoles: ConsoleAccounts } | null;
  logger: (module: string) => ModuleLogger;
}

/**
 * A server module as start-up sees it (docs/architecture.md, "How to add a module"): what it needs from the
 * modules built before it, what it builds, the event subscriptions it makes (on its services, and on the
 * running system's parts), its routes and its jobs. `createServices` builds the modules in the order their
 * needs give; `buildApp` and `startSystem` loop over them for routes, runtime subscriptions and jobs.
 */
export interface ServerModule<
  Need extends keyof Built = keyof Built,
  Give extends Partial<Built> = Partial<Built>,
> {
  name: string;
  /** The services and ports of other modules this one is built with. */
  needs?: readonly Need[];
  build?(context: BuildContext, deps: Pick<Built, Need>): Give;
  /** Subscribes to the domain events the module reacts to, once every module is built. */
  subscribe?(events: EventBus, services: Services): void;
  /**
   * Subscribes to the domain events the module reacts to with the running system's parts (live channels,
   * broker and TcpDirect connections), once they are started and before devices are let in; what it
   * returns unsubscribes.
   */
  follow?(events: EventBus, runtime: Runtime): () => void;
  routes?(services: Services, deps: RouteDeps): RouteBinding[];
  /** Starts the module's periodic jobs; what it returns stops them. */
  jobs?(context: JobContext): () => Promise<void>;
}

/** Declares a module (typed: `build` gets exactly what `needs` names). */
export function defineModule<
  Need extends keyof Built = never,
  Give extends Partial<Built> = Record<never, never>,
>(module: ServerModule<Need, Give>): ServerModule<Need, Give> {
  return module;
}

/**
 * Builds the modules, each once the modules it needs are built (the list's order otherwise), then makes
 * their subscriptions (in the list's order). Fails naming the modules whose needs nobody gives (or that need each other).
 */
export function buildModules(
  modules: readonly ServerModule<keyof Built, Partial<Built>>[],
  context: BuildContext,
): Built {
  const built: Partial<Built> = { events: context.events };
  const waiting = [...modules];
  while (waiting.length > 0) {
    const ready = waiting.findIndex((module) => (module.needs ?? []).every((need) => need in built));
    if (ready < 0) {
      const missing = waiting.map(
        (m) => `${m.name} (${(m.needs ?? []).filter((n) => !(n in built)).join(', ')})`,
      );
      throw new Error(`modules waiting for what no module builds: ${missing.join('; ')}`);
    }
    const [module] = waiting.splice(ready, 1);
    Object.assign(built, module!.build?.(context, built as Built));
  }
  for (const module of modules) module.subscribe?.(context.events, built as Built);
  return built as Built;
}
