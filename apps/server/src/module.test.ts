import { describe, expect, it } from 'vitest';
import type { Db } from './db/client.ts';
import { EventBus } from './infra/events/event-bus.ts';
import { SILENT_LOGGER } from './lib/module-logger.ts';
import { type BuildContext, buildModules, defineModule, type ServerModule } from './module.ts';
import type { Services } from './services.ts';

const context = (): BuildContext => ({
  db: {} as Db,
  config: { sessionIdleSeconds: 1, sessionMaxSeconds: 1 },
  options: {},
  events: new EventBus(SILENT_LOGGER),
});
const fake = <K extends keyof Services>(name: K, order?: string[]) => {
  order?.push(name);
  return { [name]: { name } } as unknown as Pick<Services, K>;
};

describe('buildModules', () => {
  it('builds each module after what it needs, whatever the order of the list', () => {
    const order: string[] = [];
    const modules: ServerModule[] = [
      defineModule({
        name: 'registration',
        needs: ['params', 'mail'],
        build: (_context, deps) => {
          order.push(`registration(${Object.keys(deps).sort().join(',')})`);
          return fake('registration');
        },
      }),
      defineModule({ name: 'mail', build: () => fake('mail', order) }),
      defineModule({ name: 'params', build: () => fake('params', order) }),
    ];
    const built = buildModules(modules, context());
    expect(order).toEqual(['mail', 'params', 'registration(events,mail,params)']);
    expect(Object.keys(built).sort()).toEqual(['events', 'mail', 'params', 'registration']);
  });

  it('fails naming the modules whose needs no module builds', () => {
    const modules: ServerModule[] = [
      defineModule({ name: 'org', needs: ['sessions', 'params'], build: () => fake('org') }),
      defineModule({ name: 'params', build: () => fake('params') }),
    ];
    expect(() => buildModules(modules, context())).toThrow('org (sessions)');
  });

  it('makes the subscriptions once every module is built, in the order of the list', () => {
    const seen: string[] = [];
    const modules: ServerModule[] = [
      defineModule({
        name: 'first',
        subscribe: (_events, services) => seen.push(`first sees ${Object.keys(services).sort().join(',')}`),
      }),
      defineModule({ name: 'params', build: () => fake('params') }),
      defineModule({ name: 'second', subscribe: () => seen.push('second') }),
    ];
    buildModules(modules, context());
    expect(seen).toEqual(['first sees events,params', 'second']);
  });
});
