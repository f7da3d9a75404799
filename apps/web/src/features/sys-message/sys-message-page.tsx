import { api } from '@uiot/contracts';
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../lib/permission/permission.tsx';
import { OutboxTab } from './outbox-tab.tsx';
import { RegistrationsTab } from './registrations-tab.tsx';
import './sys-message.css';

/**
 * System messages (spec §2 /sysMessage): the user registrations waiting for review and, for holders of
 * `outbox.read`, the mail the system sent (codes, review results).
 */
export function SysMessagePage() {
  const { t } = useTranslation('sysMessage');
  const can = useCan();
  const items = [
    {
      key: 'registrations',
      label: <span data-testid="sys-message-tab-registrations">{t('tab.registrations')}</span>,
      children: <RegistrationsTab />,
    },
    ...(can(api.registration.queryOutboxPage)
      ? [
          {
            key: 'outbox',
            label: <span data-testid="sys-message-tab-outbox">{t('tab.outbox')}</span>,
            children: <OutboxTab />,
          },
        ]
      : []),
  ];
  return <Tabs className="uiot-sys-message" items={items} destroyOnHidden />;
}
