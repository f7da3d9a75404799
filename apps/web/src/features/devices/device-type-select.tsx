import { TreeNodeSelect, type TreeNodeSelectProps } from '../../lib/crud/index.ts';
import { deviceTypeOptions, mainTypeOptions, useDeviceTypeTree } from './device-type-tree.ts';

/**
 * A device type chooser for forms: every type (main types with their sub types below), or with
 * `mainOnly` just the main types (the parent of a sub type). `exclude` leaves out a type with its sub types.
 */
export function DeviceTypeSelect({
  mainOnly = false,
  ...props
}: TreeNodeSelectProps & { mainOnly?: boolean }) {
  return (
    <TreeNodeSelect
      {...props}
      tree={useDeviceTypeTree()}
      toOptions={mainOnly ? mainTypeOptions : deviceTypeOptions}
    />
  );
}
