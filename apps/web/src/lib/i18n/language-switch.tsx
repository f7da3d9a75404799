import { LANGUAGES, type Lang } from '@uiot/contracts';
import { Dropdown } from 'antd';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from './i18n.ts';
import { useLang } from './use-lang.ts';

/** A dropdown of the console languages around `children` (its trigger). */
export function LanguageSwitch({ children }: { children: ReactElement }) {
  const { t } = useTranslation('common');
  const lang = useLang();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [lang],
        items: LANGUAGES.map((item) => ({
          key: item,
          label: <span data-testid={`lang-item-${item}`}>{t(`language.${item}`)}</span>,
        })),
        onClick: ({ key }) => void changeLanguage(key as Lang),
      }}
    >
      {children}
    </Dropdown>
  );
}
