import { defineModule } from '../../module.ts';
import { LevelService } from './level.service.ts';
import { levelRoutes } from './levels.routes.ts';

export { LevelService } from './level.service.ts';
export { type LevelRange, levelOf, rangesOverlap } from './level-ranges.ts';

/** Power and damage levels: their ranges, the level a value falls in, the monitor's battery bands. */
export const levelsModule = defineModule({
  name: 'levels',
  build: ({ db }) => ({ levels: new LevelService(db) }),
  routes: (services) => levelRoutes(services),
});
