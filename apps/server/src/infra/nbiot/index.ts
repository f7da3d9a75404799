import type { NbPlatform } from '@uiot/device-protocol';
import { CTWING_API, type CtwingSettings } from './ctwing.ts';
import { type NbCommandPlatform, oneRequestPlatform } from './nb-command-platform.ts';
import { OceanConnectCommandPlatform, type OceanConnectSettings } from './oceanconnect.ts';
import { ONENET_API, type OneNetSettings } from './onenet.ts';

export type { NbCommandPlatform, NbTarget } from './nb-command-platform.ts';

/** The carriers' command APIs that are configured (NB_CHINA*_API_URL and their credentials). */
export interface NbCommandSettings {
  ChinaTelecom?: CtwingSettings;
  ChinaUnicom?: OceanConnectSettings;
  ChinaMobile?: OneNetSettings;
}

export type NbCommandPlatforms = Partial<Record<NbPlatform, NbCommandPlatform>>;

/** One client per configured platform; a platform left out keeps refusing commands (CommandUnsupported). */
export function createNbCommandPlatforms(
  settings: NbCommandSettings,
  now: () => number = Date.now,
): NbCommandPlatforms {
  return {
    ...(settings.ChinaTelecom
      ? { ChinaTelecom: oneRequestPlatform(CTWING_API, settings.ChinaTelecom, now) }
      : {}),
    ...(settings.ChinaUnicom
      ? { ChinaUnicom: new OceanConnectCommandPlatform(settings.ChinaUnicom, now) }
      : {}),
    ...(settings.ChinaMobile
      ? { ChinaMobile: oneRequestPlatform(ONENET_API, settings.ChinaMobile, now) }
      : {}),
  };
}
