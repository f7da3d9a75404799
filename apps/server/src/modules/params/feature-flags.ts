/**
 * The feature flags of spec §6 with their defaults. They are rows of the parameter table (group
 * `feature`), created on first start and edited by administrators; the console reads them at sign-in.
 */
export interface FeatureFlagDefinition {
  name: string;
  defVal: string;
  valType: 'boolean' | 'string';
  desc: string;
}

export const FEATURE_FLAGS: readonly FeatureFlagDefinition[] = [
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
    desc: 'IoT locks (NB-IoT, LoRaWAN, TCP) are managed',
  },
  { name: 'NoState', defVal: 'false', valType: 'boolean', desc: 'Locks without state reporting are allowed' },
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
  { name: 'ShowCmd', defVal: 'true', valType: 'boolean', desc: 'Remote commands are offered' },
  { name: 'SupportRfid', defVal: 'true', valType: 'boolean', desc: 'RFID lock codes are managed' },
  {
    name: 'ShowKmInfo',
    defVal: 'true',
    valType: 'boolean',
    desc: 'Kilometre, line, track and door fields are shown',
  },
  { name: 'ShowKeyInfo', defVal: 'true', valType: 'boolean', desc: 'Key information is shown' },
  {
    name: 'UserRegisterLorawan',
    defVal: 'false',
    valType: 'boolean',
    desc: 'The login page offers self-registration',
  },
  { name: 'HomePageType', defVal: 'default', valType: 'string', desc: 'Layout of the home page' },
  {
    name: 'SupportMultiLanguage',
    defVal: 'true',
    valType: 'boolean',
    desc: 'The language selector is offered',
  },
];
