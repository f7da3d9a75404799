import { api } from '@uiot/contracts';
import { bind, type RouteBinding } from '../../http/endpoints.ts';
import type { Services } from '../../services.ts';

/** Power levels (/sys/battery-power), damage levels (/sys/damage) and the monitor's battery bands. */
export function levelRoutes({ levels }: Services): RouteBinding[] {
  const done = () => null;
  return [
    bind(api.powerLevel.queryPage, ({ query }) => levels.queryPower(query)),
    bind(api.powerLevel.getAll, () => levels.powerLevels()),
    bind(api.powerLevel.save, ({ body }) => levels.createPower(body)),
    bind(api.powerLevel.update, ({ body }) => levels.updatePower(body).then(done)),
    bind(api.powerLevel.del, ({ query }) => levels.removePower(query.id).then(done)),
    bind(api.powerLevel.batteryBands, () => levels.batteryBands()),

    bind(api.damageLevel.queryPage, ({ query }) => levels.queryDamage(query)),
    bind(api.damageLevel.getAll, () => levels.damageLevels()),
    bind(api.damageLevel.save, ({ body }) => levels.createDamage(body)),
    bind(api.damageLevel.update, ({ body }) => levels.updateDamage(body).then(done)),
    bind(api.damageLevel.del, ({ query }) => levels.removeDamage(query.id).then(done)),
  ];
}
