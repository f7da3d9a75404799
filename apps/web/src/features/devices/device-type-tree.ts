import { api, DEVICE_CATEGORIES, type DeviceCategory, type DeviceTypeNode } from '@uiot/contracts';
import type { TFunction } from 'i18next';
import { type SelectOption, type TreeOption, treeOptions, useTree } from '../../lib/crud/index.ts';

/** The device type tree (main types with their sub types) for choosers (the type pages' tables share it). */
export const useDeviceTypeTree = () => useTree(api.deviceType.getTree);

/** Every device type (main and sub types) as options of a tree select, without `exclude` and its sub types. */
export const deviceTypeOptions = (nodes: readonly DeviceTypeNode[], exclude?: string): TreeOption[] =>
  treeOptions(nodes, (node) => node.name, exclude);

/** Only the main types (the parents a sub type can have), without `exclude`. */
export const mainTypeOptions = (nodes: readonly DeviceTypeNode[], exclude?: string): TreeOption[] =>
  nodes.filter((node) => node.id !== exclude).map((node) => ({ value: node.id, title: node.name }));

/** Whether a device type's name or code contains the text (ignoring case). */
export function deviceTypeMatches(node: DeviceTypeNode, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  return node.name.toLowerCase().includes(needle) || node.code.toLowerCase().includes(needle);
}

/** Device categories read as the glossary has them: electronic lock, lock controller, IoT lock. */
export const deviceCategoryLabel = (t: TFunction, category: DeviceCategory | null | undefined) =>
  category ? t(`deviceType:category.${category}`) : '';
export const deviceCategoryOptions = (t: TFunction): SelectOption[] =>
  DEVICE_CATEGORIES.map((value) => ({ value, label: deviceCategoryLabel(t, value) }));
