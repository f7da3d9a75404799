import {
  type FeatureFlagValues,
  flagOn,
  type HomePageType,
  homePageTypeOf,
  Permission,
} from '@uiot/contracts';

/** What the home page shows (parameter HomePageType, spec §6 and §8). */
export interface HomeLayout {
  /** The layout named, or null when HomePageType is empty or names none (the page then says so). */
  type: HomePageType | null;
  /** The runtime monitor's counters first: layout `device`, SupportIoT on and the monitor's key held. */
  deviceCounters: boolean;
}

/**
 * The home page's layout from the feature flags read at sign-in and the user's keys: `default` is the
 * personal overview (previous sign-in, recent operations); `device` puts the counters of the registered
 * devices above it for those who may open the runtime monitor while IoT locks are managed. A misconfigured
 * or empty value shows the spec's error above the personal overview.
 */
export function homeLayout(flags: FeatureFlagValues, holds: (key: string) => boolean): HomeLayout {
  const type = homePageTypeOf(flags.HomePageType);
  return {
    type,
    deviceCounters: type === 'device' && flagOn(flags, 'SupportIoT') && holds(Permission.MonitorRead),
  };
}
