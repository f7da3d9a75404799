import { ResultCode } from '@uiot/contracts';
import { AppError } from '../../http/app-error.ts';
import type { ParamService } from '../params/param.service.ts';

/** Refuses with 1104 when the feature flag (spec §6) is not 'true'. */
export async function requireFeature(params: ParamService, name: string): Promise<void> {
  if (!(await params.getBoolean(name))) {
    throw new AppError(ResultCode.FeatureDisabled, { params: { name } });
  }
}
