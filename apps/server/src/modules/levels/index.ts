import { defineModule } from '../../module.ts';
import { LevelService } from './level.service.ts';
import { levelRoutes } from './levels.routes.ts';
import './events.ts';

export { LevelService } from './level.service.ts';
export { type LevelRange, levelOf, rangesOverlap } from './level-ranges.ts';

/** Power and damage levels: their ranges, the level a value falls in, the monitor's battery bands. */
export const levelsModule = defineModule({
  name: 'levels',
  build: ({ db, events }) => {
    // The battery bands kept by every instance follow a power level changed on any of them.
    events.declareShared('powerLevel.changed');
    events.declareShared('damageLevel.changed');
    return { levels: new LevelService(db, events) };
  },
  subscribe: (events, { levels }) => {
    events.subscribe('powerLevel.changed', 'battery bands', () => levels.forgetBands());
  },
  routes: (services) => levelRoutes(services),
});
