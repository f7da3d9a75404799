import { api, type FeatureFlagValues, type HomePageType, homePageTypeOf } from '@uiot/contracts';
import type { EndpointGate } from '../../lib/permission/permission.tsx';

/** What the home page shows (parameter HomePageType, spec §6 and §8). */
export interface HomeLayout {
  /** The layout named, or null when HomePageType is empty or names none (the page then says so). */
  type: HomePageType | null;
  /**
   * The runtime monitor's counters first: layout `device`, for who may call the summary they show (the
   * monitor's key, SupportIoT on).
   */
  deviceCounters: boolean;
  /** The lock task cards above the personal overview (layout `task`); below today's alarms otherwise. */
  tasksFirst: boolean;
}

/**
 * The home page's layout from the feature flags read at sign-in and what the user may call: `default` is the
 * personal overview (previous sign-in, recent operations); `device` puts the counters of the registered
 * devices above it for those who may open the runtime monitor while IoT locks are managed. A misconfigured
 * or empty value shows the spec's error above the personal overview.
 */
export function homeLayout(flags: FeatureFlagValues, can: (endpoint: EndpointGate) => boolean): HomeLayout {
  const type = homePageTypeOf(flags.HomePageType);
  return {
    type,
    deviceCounters: type === 'device' && can(api.runtime.summary),
    tasksFirst: type === 'task',
  };
}
