import { Permission, type PermissionKey } from '@uiot/contracts';

/**
 * The tabs of a device's monitor details (spec §2: lock codes, communication logs, operation record, data
 * collection, historical alarm, dynamic passwords, param config), in the spec's order, with the keys that
 * show each: any one of them. Operation records, historical alarms and dynamic passwords come with their
 * own work.
 */
export const DETAIL_TABS = [
  { key: 'lockCodes', anyOf: [Permission.DeviceRead] },
  { key: 'messages', anyOf: [Permission.IotMessageRead] },
  { key: 'collection', anyOf: [Permission.MonitorRead] },
  // Sending needs the send key; the list of commands sent the read key: either shows the tab.
  { key: 'params', anyOf: [Permission.DeviceCommandSend, Permission.DeviceCommandRead] },
] as const satisfies readonly { key: string; anyOf: readonly PermissionKey[] }[];
export type DetailTab = (typeof DETAIL_TABS)[number]['key'];

/** The tabs a user holding these keys sees, in their order. */
export function visibleDetailTabs(holds: (key: PermissionKey) => boolean): DetailTab[] {
  return DETAIL_TABS.filter((tab) => tab.anyOf.some((key) => holds(key))).map((tab) => tab.key);
}
