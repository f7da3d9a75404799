import { readJson, writeJson } from '../store/storage.ts';
import { createStore, useStore } from '../store/store.ts';

/** Page-size choices of spec §2. */
export const LAYOUT_SIZES = ['default', 'medium', 'small', 'mini'] as const;
export type LayoutSize = (typeof LAYOUT_SIZES)[number];

export const DEFAULT_THEME_COLOR = '#1890ff';
export const THEME_PRESETS = [
  '#1890ff',
  '#304156',
  '#11a983',
  '#13c2c2',
  '#6959cd',
  '#722ed1',
  '#f5222d',
  '#fa8c16',
] as const;

/** The user's layout preferences, remembered in the browser. */
export interface Settings {
  themeColor: string;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  size: LayoutSize;
  sidebarCollapsed: boolean;
}

const STORAGE_KEY = 'uiot.settings';

export const DEFAULT_SETTINGS: Settings = {
  themeColor: DEFAULT_THEME_COLOR,
  tagsView: true,
  fixedHeader: true,
  sidebarLogo: true,
  size: 'default',
  sidebarCollapsed: false,
};

function sanitize(stored: Partial<Settings> | null): Settings {
  const merged = { ...DEFAULT_SETTINGS, ...(stored ?? {}) };
  if (!LAYOUT_SIZES.includes(merged.size)) merged.size = DEFAULT_SETTINGS.size;
  if (!/^#[0-9a-f]{6}$/i.test(merged.themeColor)) merged.themeColor = DEFAULT_THEME_COLOR;
  return merged;
}

export const settings = createStore<Settings>(sanitize(readJson<Partial<Settings>>('local', STORAGE_KEY)));

export function updateSettings(change: Partial<Settings>): void {
  settings.set((current) => ({ ...current, ...change }));
  writeJson('local', STORAGE_KEY, settings.get());
}

export function resetSettings(): void {
  const { sidebarCollapsed } = settings.get();
  updateSettings({ ...DEFAULT_SETTINGS, sidebarCollapsed });
}

export function useSettings(): Settings {
  return useStore(settings);
}
