import type { ParamValType } from '@uiot/contracts';
import { FEATURE_FLAGS } from './feature-flags.ts';

/** A parameter the system creates on first start and reads by name: it cannot be deleted or renamed. */
export interface BuiltInParam {
  name: string;
  valType: ParamValType;
  defVal: string;
  desc: string;
  group: 'feature' | 'setting';
  cls: string | null;
  /** Readable by every signed-in user without param.read; fixed for a built-in parameter. */
  isPublic: boolean;
}

/**
 * Named settings of spec §7 (params/getADCode, getLngLat, ...), group `setting`: public, since the spec gives
 * each a call of its own for every signed-in client (the map, the mobile app, lock tasks). DoorOpenTimeout
 * (the run state timeOutNotClosed, docs/alarms.md) is public like every built-in parameter: the apps may
 * tell a user how long a door may stand open.
 */
export const SETTINGS: readonly BuiltInParam[] = [
  {
    name: 'ADCode',
    valType: 'string',
    defVal: '810000',
    desc: 'Administrative division code of the installation (810000: Hong Kong)',
    group: 'setting',
    cls: 'map',
    isPublic: true,
  },
  {
    name: 'LngLat',
    valType: 'string',
    defVal: '114.1694,22.3193',
    desc: 'Centre of the map as "longitude,latitude"',
    group: 'setting',
    cls: 'map',
    isPublic: true,
  },
  {
    name: 'MarkerSearchDistance',
    valType: 'number',
    defVal: '500',
    desc: 'Search radius of the map markers, in metres',
    group: 'setting',
    cls: 'map',
    isPublic: true,
  },
  {
    name: 'MobileAppRegist',
    valType: 'boolean',
    defVal: 'false',
    desc: 'Mobile apps must be registered and authorised before use',
    group: 'setting',
    cls: 'app',
    isPublic: true,
  },
  {
    name: 'DoorOpenTimeout',
    valType: 'number',
    defVal: '30',
    desc: 'Minutes a door may stand open before its lock shows the run state timeOutNotClosed (0: never)',
    group: 'setting',
    cls: 'device',
    isPublic: true,
  },
  {
    name: 'TaskNeedAudit',
    valType: 'boolean',
    defVal: 'true',
    desc: 'Lock tasks need an audit before they can be executed',
    group: 'setting',
    cls: 'task',
    isPublic: true,
  },
];

/** The feature flags are public: the console reads them at sign-in, before it knows the user's keys. */
export const BUILT_IN_PARAMS: readonly BuiltInParam[] = [
  ...FEATURE_FLAGS.map((f) => ({ ...f, group: 'feature' as const, cls: null, isPublic: true })),
  ...SETTINGS,
];

const builtInNames = new Set(BUILT_IN_PARAMS.map((p) => p.name));

export function isBuiltInParam(name: string): boolean {
  return builtInNames.has(name);
}
