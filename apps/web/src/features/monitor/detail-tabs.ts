import {
  type FeatureFlagValues,
  type FeatureSwitch,
  flagOn,
  Permission,
  type PermissionKey,
} from '@uiot/contracts';

/**
 * The tabs of a device's monitor details (spec §2: lock codes, communication logs, operation record, data
 * collection, historical alarm, dynamic passwords, param config), in the spec's order, with the keys that
 * show each (any one of them) and the feature flags it needs (spec §6). Operation records, historical alarms
 * and dynamic passwords come with their own work.
 */
export const DETAIL_TABS = [
  { key: 'lockCodes', anyOf: [Permission.DeviceRead], features: ['SupportRfid'] },
  { key: 'messages', anyOf: [Permission.IotMessageRead], features: [] },
  { key: 'collection', anyOf: [Permission.MonitorRead], features: [] },
  // Sending needs the send key; the list of commands sent the read key: either shows the tab.
  {
    key: 'params',
    anyOf: [Permission.DeviceCommandSend, Permission.DeviceCommandRead],
    features: ['ShowCmd'],
  },
] as const satisfies readonly {
  key: string;
  anyOf: readonly PermissionKey[];
  features: readonly FeatureSwitch[];
}[];
export type DetailTab = (typeof DETAIL_TABS)[number]['key'];

/** The tabs a user holding these keys sees with these flags, in their order. */
export function visibleDetailTabs(
  holds: (key: PermissionKey) => boolean,
  flags: FeatureFlagValues,
): DetailTab[] {
  return DETAIL_TABS.filter(
    (tab) =>
      tab.anyOf.some((key) => holds(key)) &&
      (tab.features as readonly FeatureSwitch[]).every((flag) => flagOn(flags, flag)),
  ).map((tab) => tab.key);
}
