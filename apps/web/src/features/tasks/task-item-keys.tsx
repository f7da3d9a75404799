import { useQuery } from '@tanstack/react-query';
import { api, type LockTaskRow, type TaskItemForm } from '@uiot/contracts';
import { Form, type FormInstance, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../lib/permission/permission.tsx';
import { endpointQuery } from '../../lib/request/index.ts';

/** Keys a chooser offers per search: a normal key, by name or code. */
const KEYS_SHOWN = 20;

/**
 * The key of one operation item: a normal key (lost or disabled keys open nothing), searchable by name or
 * code, its holder shown; cleared, the item takes any key its operator holds. `known` names the stored key.
 */
function ItemKeySelect({
  value,
  onChange,
  known,
  testId,
}: {
  value?: string | null;
  onChange?: (value: string | null) => void;
  known: { id: string; name: string } | null;
  testId: string;
}) {
  const { t } = useTranslation('tasks');
  const [keyword, setKeyword] = useState('');
  const keys = useQuery(
    endpointQuery(
      api.key.queryPage,
      { pageIndex: 1, pageSize: KEYS_SHOWN, state: 'normal', ...(keyword ? { keyword } : {}) },
      { noOverlay: true, silent: true },
    ),
  );
  const options = (keys.data?.rows ?? []).map((key) => ({
    value: key.id,
    label: key.staffName ? `${key.name} (${key.staffName})` : key.name,
  }));
  if (known && !options.some((option) => option.value === known.id)) {
    options.push({ value: known.id, label: known.name });
  }
  return (
    <Select<string | null>
      value={value ?? null}
      onChange={(next) => onChange?.(next ?? null)}
      options={options}
      allowClear
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      loading={keys.isFetching}
      placeholder={t('lockTask.anyKey')}
      data-testid={testId}
      style={{ width: '100%' }}
    />
  );
}

/**
 * A key chooser for each operation item, where keys are used (ShowKeyInfo on, the key list callable): the
 * items are the devices chosen above, named by `deviceName`.
 */
export function TaskItemKeys({
  row,
  form,
  deviceName,
  testId,
}: {
  row: LockTaskRow | null;
  form: FormInstance;
  deviceName: (deviceId: string) => string;
  testId: string;
}) {
  const { t } = useTranslation('tasks');
  // The key list's gate holds both: ShowKeyInfo on, and a key the user holds.
  const keysUsed = useCan()(api.key.queryPage);
  const items = (Form.useWatch('items', form) as TaskItemForm[] | undefined) ?? [];
  if (!keysUsed || items.length === 0) return null;
  const storedKey = (deviceId: string) => {
    const item = row?.items.find((i) => i.deviceId === deviceId && i.keyId);
    return item?.keyId ? { id: item.keyId, name: item.keyName ?? item.keyId } : null;
  };
  return (
    <div className="uiot-tasks__item-keys" data-testid={testId}>
      <Typography.Text type="secondary">{t('lockTask.itemKeys')}</Typography.Text>
      {items.map((item, index) => (
        <div key={item.deviceId} className="uiot-tasks__item-key">
          <Typography.Text
            ellipsis={{ tooltip: deviceName(item.deviceId) }}
            className="uiot-tasks__item-device"
          >
            {deviceName(item.deviceId)}
          </Typography.Text>
          <Form.Item name={['items', index, 'keyId']} noStyle>
            <ItemKeySelect known={storedKey(item.deviceId)} testId={`${testId}-${index}`} />
          </Form.Item>
        </div>
      ))}
    </div>
  );
}
