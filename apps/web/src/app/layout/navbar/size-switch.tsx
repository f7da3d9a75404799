import { ColumnHeightOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { toastSuccess } from '../../../lib/feedback/feedback.ts';
import {
  LAYOUT_SIZES,
  type LayoutSize,
  updateSettings,
  useSettings,
} from '../../../lib/settings/settings.ts';

/** Layout size (spec §2): default, medium, small, mini. */
export function SizeSwitch() {
  const { t } = useTranslation('shell');
  const { size } = useSettings();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [size],
        items: LAYOUT_SIZES.map((item) => ({
          key: item,
          label: <span data-testid={`size-item-${item}`}>{t(`size.${item}`)}</span>,
        })),
        onClick: ({ key }) => {
          updateSettings({ size: key as LayoutSize });
          toastSuccess(t('size.switched'));
        },
      }}
    >
      <Button
        type="text"
        icon={<ColumnHeightOutlined />}
        aria-label={t('navbar.size')}
        title={t('navbar.size')}
        data-testid="size-switch"
      />
    </Dropdown>
  );
}
