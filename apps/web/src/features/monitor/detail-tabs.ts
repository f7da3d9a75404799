import { api } from '@uiot/contracts';
import type { EndpointGate } from '../../lib/permission/permission.tsx';

/**
 * The tabs of a device's monitor details (spec §2: lock codes, communication logs, operation record, data
 * collection, historical alarm, dynamic passwords, param config), in the spec's order, each with the
 * endpoints it shows: a tab is there for a user who may call any of them, their keys and feature flags
 * (spec §6) as the contracts declare them.
 */
export const DETAIL_TABS = [
  { key: 'lockCodes', endpoints: [api.lockCode.queryByDevice] },
  { key: 'messages', endpoints: [api.deviceHistory.queryPage] },
  { key: 'operations', endpoints: [api.operationRecord.queryPage] },
  { key: 'collection', endpoints: [api.runtime.getByDeviceId] },
  { key: 'alarms', endpoints: [api.deviceAlarm.queryPage] },
  { key: 'pins', endpoints: [api.pin.queryPage] },
  // Sending needs the send key; the list of commands sent the read key: either shows the tab.
  { key: 'params', endpoints: [api.deviceCommand.sendParam, api.deviceCommand.queryPage] },
] as const satisfies readonly { key: string; endpoints: readonly EndpointGate[] }[];
export type DetailTab = (typeof DETAIL_TABS)[number]['key'];

/** The tabs of a user who may call what `can` allows, in their order. */
export function visibleDetailTabs(can: (endpoint: EndpointGate) => boolean): DetailTab[] {
  return DETAIL_TABS.filter((tab) => tab.endpoints.some((endpoint) => can(endpoint))).map((tab) => tab.key);
}
