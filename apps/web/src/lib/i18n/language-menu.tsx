import GlobalOutlined from '@ant-design/icons-svg/es/asn/GlobalOutlined';
import { LANGUAGES, type Lang } from '@uiot/contracts';
import { useTranslation } from 'react-i18next';
import { loadChunk } from '../chunks/load-chunk.ts';
import { Icon } from '../light/icon.tsx';
import { MenuButton } from '../light/menu-button.tsx';
import { changeLanguage } from './i18n.ts';
import { useLang } from './use-lang.ts';

/** The language selector of the pages shown before the console loads (the navbar has antd's). */
export function LanguageMenu({ testId }: { testId: string }) {
  const { t } = useTranslation('common');
  const lang = useLang();
  return (
    <MenuButton
      label={t('language.label')}
      icon={<Icon icon={GlobalOutlined} />}
      choices={LANGUAGES.map((item) => ({
        key: item,
        label: t(`language.${item}`),
        testId: `lang-item-${item}`,
      }))}
      checked={lang}
      onChoose={(key) => void loadChunk(() => changeLanguage(key as Lang)).catch(() => undefined)}
      testId={testId}
    />
  );
}
