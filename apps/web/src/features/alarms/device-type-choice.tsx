import { api, type DeviceTypeNode } from '@uiot/contracts';
import {
  TreeNodeSelect,
  type TreeNodeSelectProps,
  type TreeOption,
  treeOptions,
  useTree,
} from '../../lib/crud/index.ts';

/** The device type tree (main types with their sub types) for the alarm pages' choosers and search. */
export const useDeviceTypes = () => useTree(api.deviceType.getTree);

/** Every device type as options of a tree select. */
export const deviceTypeTreeOptions = (nodes: readonly DeviceTypeNode[]): TreeOption[] =>
  treeOptions(nodes, (node) => node.name);

/** A device type chooser for forms (a rule's type, the catalogue's type). */
export function DeviceTypeChoice(props: TreeNodeSelectProps) {
  return <TreeNodeSelect {...props} tree={useDeviceTypes()} toOptions={deviceTypeTreeOptions} />;
}
