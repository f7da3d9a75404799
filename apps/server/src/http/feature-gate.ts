import { closedFeature, type FeatureSwitch, ResultCode } from '@uiot/contracts';
import type { FastifyInstance } from 'fastify';
import type { ParamService } from '../modules/params/index.ts';
import { AppError } from './app-error.ts';

/** The refusal of a switched-off feature (spec §6): 1104 naming its flag. */
export function featureDisabled(name: FeatureSwitch): AppError {
  return new AppError(ResultCode.FeatureDisabled, { params: { name } });
}

/**
 * The one gate of the feature flags (spec §6) over the API: an endpoint whose contract names `features`
 * answers FeatureDisabled naming the first one that is off, before its handler runs. It runs after the
 * guard (a caller without the key is refused as such, whatever the flags) and reads the flags from the
 * database on every gated call, so switching a flag takes effect at once on every instance.
 */
export function installFeatureGate(app: FastifyInstance, params: Pick<ParamService, 'getValues'>): void {
  app.addHook('preHandler', async (req) => {
    const needed = req.routeOptions.config.endpoint?.features;
    if (!needed || needed.length === 0) return;
    const closed = closedFeature(await params.getValues(needed), needed);
    if (closed) throw featureDisabled(closed);
  });
}
