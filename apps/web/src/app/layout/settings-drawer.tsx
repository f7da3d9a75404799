import { Button, ColorPicker, Divider, Drawer, Switch, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { getRuntimeConfig } from '../../lib/runtime-config/runtime-config.ts';
import {
  resetSettings,
  type Settings,
  THEME_PRESETS,
  updateSettings,
  useSettings,
} from '../../lib/settings/settings.ts';

function SettingRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="uiot-settings__row">
      <Typography.Text>{label}</Typography.Text>
      {children}
    </div>
  );
}

type SwitchSetting = 'tagsView' | 'fixedHeader' | 'sidebarLogo';

/** Settings panel (spec §2): theme colour, tags view, fixed header, sidebar logo; remembered in the browser. */
export function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('shell');
  const current = useSettings();
  const { views } = getRuntimeConfig();
  // Parts switched off by the runtime configuration are not offered.
  const switches: [SwitchSetting, string][] = (
    [
      ['tagsView', t('settings.tagsView')],
      ['fixedHeader', t('settings.fixedHeader')],
      ['sidebarLogo', t('settings.sidebarLogo')],
    ] as [SwitchSetting, string][]
  ).filter(([key]) => views[key] && (key !== 'sidebarLogo' || views.sidebar));

  return (
    <Drawer open={open} onClose={onClose} title={t('settings.title')} size={300}>
      <div data-testid="settings-drawer">
        <SettingRow label={t('settings.themeColor')}>
          <span data-testid="settings-theme-color">
            <ColorPicker
              value={current.themeColor}
              disabledAlpha
              presets={[{ label: t('settings.presets'), colors: [...THEME_PRESETS] }]}
              onChangeComplete={(color) => updateSettings({ themeColor: color.toHexString() })}
            />
          </span>
        </SettingRow>
        <Divider />
        {switches.map(([key, label]) => (
          <SettingRow key={key} label={label}>
            <Switch
              checked={current[key as keyof Settings] as boolean}
              onChange={(checked) => updateSettings({ [key]: checked })}
              data-testid={`settings-${key}`}
            />
          </SettingRow>
        ))}
        <Divider />
        <Button block onClick={resetSettings} data-testid="settings-reset">
          {t('settings.reset')}
        </Button>
      </div>
    </Drawer>
  );
}
