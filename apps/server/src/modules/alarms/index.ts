import { defineModule } from '../../module.ts';
import { alarmsRoutes } from './alarms.routes.ts';
import { WarnRuleService } from './warn-rule.service.ts';
import './events.ts';

export { WarnRuleService } from './warn-rule.service.ts';

/** What the alarms module serves to the others. */
export interface AlarmsServices {
  /** Warn rules and the property catalogue of device types. */
  warnRules: WarnRuleService;
}

/** Warn rules, the property catalogue of device types (docs/alarms.md). */
export const alarmsModule = defineModule({
  name: 'alarms',
  build: ({ db, events }) => {
    // Rule caches of every instance reload a type whose rules changed anywhere.
    events.declareShared('warnRule.changed');
    return { alarms: { warnRules: new WarnRuleService(db, events) } satisfies AlarmsServices };
  },
  routes: (services) => alarmsRoutes(services),
});
