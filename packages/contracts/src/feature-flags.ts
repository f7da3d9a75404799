/**
 * The feature flags of spec §6 with their defaults: rows of the parameter table (group `feature`), created
 * on first start and edited by administrators; the console reads them at sign-in (`sys_params`). What each
 * one switches is listed in docs/parameters.md.
 *
 * A switch (a boolean flag) gates endpoints and menu entries declaratively: an endpoint or a menu entry of
 * the contract names the switches it needs (`features`), the server refuses the endpoint with
 * FeatureDisabled naming the first one that is off, and leaves the menu entry out of the user's menus.
 */
export interface FeatureFlagDefinition {
  name: string;
  defVal: string;
  valType: 'boolean' | 'string';
  desc: string;
}

export const FEATURE_FLAGS = [
  {
    name: 'StrongPassword',
    defVal: 'true',
    valType: 'boolean',
    desc: 'Staff passwords must pass the strong password policy',
  },
  {
    name: 'SupportIoT',
    defVal: 'true',
    valType: 'boolean',
    desc: 'IoT locks (NB-IoT, LoRaWAN, TcpDirect) are managed: their ledger fields, registration, runtime monitor, telemetry and commands',
  },
  {
    name: 'NoState',
    defVal: 'false',
    valType: 'boolean',
    desc: 'Locks without state reporting may be entered (the device field "no state")',
  },
  {
    name: 'SuppertDeviceTerm',
    defVal: 'true',
    valType: 'boolean',
    desc: 'Device-type glossary terms are used in tickets',
  },
  {
    name: 'SupportVideo',
    defVal: 'true',
    valType: 'boolean',
    desc: 'Cameras and video monitoring are shown',
  },
  {
    name: 'ChangePwdByFirstLogin',
    defVal: 'true',
    valType: 'boolean',
    desc: 'Users must change the initial password at first sign-in',
  },
  { name: 'ShowAllMarker', defVal: 'true', valType: 'boolean', desc: 'The map shows every device marker' },
  {
    name: 'TaskUseDrawUnit',
    defVal: 'false',
    valType: 'boolean',
    desc: 'Lock tasks select devices by drawn operation unit',
  },
  { name: 'PreStoreTask', defVal: 'false', valType: 'boolean', desc: 'Lock tasks may be stored in advance' },
  {
    name: 'SupportAdjustValue',
    defVal: 'true',
    valType: 'boolean',
    desc: 'Device correction values are managed',
  },
  { name: 'SupportAttachment', defVal: 'true', valType: 'boolean', desc: 'Attached devices are managed' },
  { name: 'ShowResetImei', defVal: 'false', valType: 'boolean', desc: 'The reset-IMEI action is offered' },
  {
    name: 'ShowCmd',
    defVal: 'true',
    valType: 'boolean',
    desc: 'Remote commands are offered: parameter send-down and the remote control records',
  },
  { name: 'SupportRfid', defVal: 'true', valType: 'boolean', desc: 'RFID lock codes are managed' },
  {
    name: 'ShowKmInfo',
    defVal: 'true',
    valType: 'boolean',
    desc: 'Kilometre, line, track and door fields are shown',
  },
  {
    name: 'ShowKeyInfo',
    defVal: 'true',
    valType: 'boolean',
    desc: 'Key information is shown: the key ledger',
  },
  {
    name: 'UserRegisterLorawan',
    defVal: 'false',
    valType: 'boolean',
    desc: 'The login page offers self-registration',
  },
  {
    name: 'HomePageType',
    defVal: 'default',
    valType: 'string',
    desc: 'Layout of the home page: default (personal overview), device (device counters first) or task (my lock tasks first)',
  },
  {
    name: 'SupportMultiLanguage',
    defVal: 'true',
    valType: 'boolean',
    desc: 'The language selector is offered',
  },
] as const satisfies readonly FeatureFlagDefinition[];

export type FeatureFlagName = (typeof FEATURE_FLAGS)[number]['name'];
/** A boolean flag: a feature that is on (`'true'`) or off. */
export type FeatureSwitch = Extract<(typeof FEATURE_FLAGS)[number], { valType: 'boolean' }>['name'];

/** The flags as the console and the server read them: the text of each parameter by name. */
export type FeatureFlagValues = Readonly<Record<string, string | undefined>>;

/** Whether a switch is on: only the text `true` is (an unset or mistyped value is off). */
export function flagOn(flags: FeatureFlagValues, name: FeatureSwitch): boolean {
  return flags[name] === 'true';
}

/** The first of the switches that is off, or null when all are on (a gate of an endpoint or a menu entry). */
export function closedFeature(
  flags: FeatureFlagValues,
  needed: readonly FeatureSwitch[] | undefined,
): FeatureSwitch | null {
  return needed?.find((name) => !flagOn(flags, name)) ?? null;
}

/**
 * Layouts of the home page (parameter HomePageType): `default` greets the user with the previous sign-in
 * and the recent operations; `device` puts the counters of the registered devices first (for holders of
 * `monitor.read` while SupportIoT is on), above the same personal overview; `task` puts the lock task cards
 * (my tasks, today's tasks and device operations) first. Each card is shown only to who may read it.
 */
export const HOME_PAGE_TYPES = ['default', 'device', 'task'] as const;
export type HomePageType = (typeof HOME_PAGE_TYPES)[number];

/** The layout a HomePageType value names, or null when the value is empty or names none. */
export function homePageTypeOf(value: string | undefined): HomePageType | null {
  const trimmed = value?.trim();
  return (HOME_PAGE_TYPES as readonly string[]).includes(trimmed ?? '') ? (trimmed as HomePageType) : null;
}
